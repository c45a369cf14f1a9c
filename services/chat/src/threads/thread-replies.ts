import { invalid, notFound, type Logger } from '@im/sdk';
import type { Types } from 'mongoose';
import type { ChatModels, MessageDoc } from '../models.ts';
import type { MessageStore } from '../store/message-store.ts';

/**
 * The send path's part of threads: which root a reply may name, and what a
 * stored reply changes (the root's summary, the participants' follows).
 */
export class ThreadReplies {
  readonly #models: Pick<ChatModels, 'follows'>;
  readonly #store: MessageStore;
  readonly #logger: Logger;

  constructor(models: Pick<ChatModels, 'follows'>, store: MessageStore, logger: Logger) {
    this.#models = models;
    this.#store = store;
    this.#logger = logger;
  }

  /** The root a reply names: a live top-level message of the same converse (404 if none; a reply is 400). */
  async requireRoot(converseId: string, threadId: string): Promise<MessageDoc> {
    const root = await this.#store.read.liveIn(converseId, threadId);
    if (!root) throw notFound('message', "'threadId' names no live message of this converse");
    if (root.threadId)
      throw invalid("'threadId' must be a top-level message, not a thread reply", [
        { field: 'threadId', type: 'thread', message: 'A reply cannot start a thread' },
      ]);
    return root;
  }

  /**
   * A reply was stored (called once per stored reply, never for a retried
   * send): one atomic update of the root's summary, then the follows of
   * the root's author, the replier and those the reply mentions. Answers the
   * updated root (null if it vanished meanwhile) for the caller to announce.
   */
  async replied(reply: MessageDoc, root: MessageDoc): Promise<MessageDoc | null> {
    const updated = await this.#store.change.threadReplied(reply, root._id);
    // The reply and its root stand whatever happens here: a follow missed is logged, not thrown.
    await this.#follow(reply, root).catch((err: unknown) =>
      this.#logger.error({ err, rootId: root._id.toHexString() }, 'could not record thread follows'),
    );
    return updated;
  }

  async #follow(reply: MessageDoc, root: MessageDoc): Promise<void> {
    const others = new Map<string, Types.ObjectId>();
    for (const id of [root.authorId, ...reply.mentions]) others.set(id.toHexString(), id);
    others.delete(reply.authorId.toHexString());
    await this.#models.follows.collection.bulkWrite(
      [
        // The replier has read up to their own reply.
        {
          updateOne: {
            filter: { userId: reply.authorId, rootId: root._id },
            update: {
              $setOnInsert: { converseId: reply.converseId },
              $max: { readSeq: reply.seq, lastReplyAt: reply.createdAt },
            },
            upsert: true,
          },
        },
        // Newly following: everything after the root is unread.
        ...[...others.values()].map((userId) => ({
          updateOne: {
            filter: { userId, rootId: root._id },
            update: {
              $setOnInsert: { converseId: reply.converseId, readSeq: root.seq },
              $max: { lastReplyAt: reply.createdAt },
            },
            upsert: true,
          },
        })),
        // Every other follower sees the thread move up.
        {
          updateMany: {
            filter: { rootId: root._id, lastReplyAt: { $lt: reply.createdAt } },
            update: { $max: { lastReplyAt: reply.createdAt } },
          },
        },
      ],
      { ordered: true },
    );
  }
}
