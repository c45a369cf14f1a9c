import { ImError, type Logger } from '@im/sdk';
import type { Types } from 'mongoose';
import type { ChatModels, MessageDoc } from '../models.ts';
import type { RecentMessages } from '../store/recent-messages.ts';

/**
 * The send path's part of threads: which root a reply may name, and what a
 * stored reply changes (the root's summary, the participants' follows).
 */
export class ThreadReplies {
  readonly #models: ChatModels;
  readonly #recent: RecentMessages;
  readonly #logger: Logger;

  constructor(models: ChatModels, recent: RecentMessages, logger: Logger) {
    this.#models = models;
    this.#recent = recent;
    this.#logger = logger;
  }

  /** The root a reply names: a live top-level message of the same converse (404 if none; a reply is 400). */
  async requireRoot(converseId: string, threadId: string): Promise<MessageDoc> {
    const root = await this.#models.messages
      .findOne({ _id: threadId, converseId, deleted: { $ne: true } }, { seq: 1, authorId: 1, threadId: 1 })
      .lean<MessageDoc>();
    if (!root) throw new ImError('IM_ERR_NOT_FOUND', 'threadId: no such message in this converse');
    if (root.threadId)
      throw new ImError('IM_ERR_VALIDATION', "'threadId' must be a top-level message, not a thread reply", [
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
    const updated = await this.#models.messages
      .findOneAndUpdate(
        { _id: root._id },
        {
          $inc: { 'thread.replyCount': 1, v: 1 },
          $max: { 'thread.lastReplyAt': reply.createdAt },
          $addToSet: { 'thread.participantIds': reply.authorId },
        },
        { new: true },
      )
      .lean<MessageDoc>();
    if (updated) await this.#recent.changed(updated);
    // The reply and its root stand whatever happens here: a follow missed is logged, not thrown.
    await this.#follow(reply, root).catch((err: unknown) =>
      this.#logger.error({ err, rootId: root._id.toHexString() }, 'could not record thread follows'),
    );
    return updated;
  }

  /**
   * A reply was deleted: its root counts one reply fewer (participants and
   * the last reply time stay: they say who took part and when it was last
   * active). Answers the updated root, null if none changed.
   */
  async unreplied(reply: MessageDoc): Promise<MessageDoc | null> {
    if (!reply.threadId) return null;
    const updated = await this.#models.messages
      .findOneAndUpdate(
        { _id: reply.threadId, 'thread.replyCount': { $gt: 0 } },
        { $inc: { 'thread.replyCount': -1, v: 1 } },
        { new: true },
      )
      .lean<MessageDoc>();
    if (updated) await this.#recent.changed(updated);
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
