import type { UnreadEntry } from '@im/protocol';
import { announce, callerId, EVENTS, ImError, type ActionParams, type ActionResult, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatDeps, Ctx } from '../deps.ts';
import { unreadManySeqs } from '../messages/mention-many.ts';
import { MAX_KEPT_MENTIONS, unreadMentions } from '../store/mention-seqs.ts';
import type { ConverseDoc, MessageDoc, ReadDoc } from '../models.ts';
import { chatParams } from '../params.ts';

/** Mark as unread, and who follows a thread (for the inbox's reply entries). */
export const markUnreadActions = ({ models, access }: ChatDeps) => ({
  /**
   * Sets the caller's read position back to just before message `seq`: the
   * converse shows unread from there, with the mentions of me above it
   * counted again. Answers the converse's counts, which the caller's other
   * devices get too (`converse:unread`).
   */
  markUnread: {
    params: chatParams.markUnread,
    async handler(ctx: Ctx<Params<typeof chatParams.markUnread>>): Promise<UnreadEntry> {
      const userId = callerId(ctx);
      const { converseId, seq } = ctx.params;
      await access.require(ctx, converseId, userId);
      const counter = await models.converses
        .findById(converseId, { lastSeq: 1, lastManySeq: 1 })
        .lean<Pick<ConverseDoc, 'lastSeq' | 'lastManySeq'>>();
      const lastSeq = counter?.lastSeq ?? 0;
      if (seq > lastSeq)
        throw new ImError('IM_ERR_VALIDATION', "'seq' is past the converse's last message", [
          { field: 'seq', type: 'max', message: `at most ${lastSeq}` },
        ]);
      const readSeq = seq - 1;
      const me = new Types.ObjectId(userId);
      // The mentions above the new position were dropped when they were read: find them again.
      const mentioned = await models.messages
        .find(
          { converseId, seq: { $gt: readSeq }, mentions: me, deleted: { $ne: true }, authorId: { $ne: me } },
          { seq: 1 },
        )
        .sort({ seq: -1 })
        .limit(MAX_KEPT_MENTIONS)
        .maxTimeMS(5000)
        .lean<Array<Pick<MessageDoc, 'seq'>>>();
      const mentionSeqs = mentioned.map((m) => m.seq).reverse();
      await models.reads.updateOne({ userId, converseId }, { $set: { readSeq, mentionSeqs } }, { upsert: true });
      const many =
        (counter?.lastManySeq ?? 0) > readSeq
          ? ((await unreadManySeqs(models.messages, userId, [{ converseId, readSeq }])).get(converseId) ?? [])
          : [];
      const entry: UnreadEntry = {
        converseId,
        lastSeq,
        readSeq,
        unread: lastSeq - readSeq,
        mentions: unreadMentions({ readSeq, mentionSeqs } as Pick<ReadDoc, 'readSeq' | 'mentionSeqs'>, many),
      };
      announce(ctx, EVENTS.converseUnread, { userId, entry });
      return entry;
    },
  },

  /** For the push service: who follows a thread (its root's author always), to tell them of a reply. */
  threadFollowers: {
    visibility: 'public' as const,
    params: chatParams.threadFollowers,
    async handler(ctx: Ctx<ActionParams<'chat.threadFollowers'>>): Promise<ActionResult<'chat.threadFollowers'>> {
      const { rootId, max } = ctx.params;
      const [root, follows] = await Promise.all([
        models.messages.findById(rootId, { authorId: 1 }).lean<Pick<MessageDoc, 'authorId'>>(),
        models.follows.find({ rootId }, { userId: 1 }).limit(max).lean<Array<{ userId: Types.ObjectId }>>(),
      ]);
      const ids = new Set(follows.map((f) => f.userId.toHexString()));
      if (root) ids.add(root.authorId.toHexString());
      return [...ids];
    },
  },
});
