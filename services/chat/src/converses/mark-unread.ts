import type { UnreadEntry } from '@im/protocol';
import {
  announce,
  callerId,
  EVENTS,
  invalid,
  type ActionParams,
  type ActionResult,
  type Ctx,
  type Params,
} from '@im/sdk';
import type { Types } from 'mongoose';
import type { ChatDeps } from '../deps.ts';
import { MAX_KEPT_MENTIONS, unreadMentions } from '../store/mention-seqs.ts';
import type { ReadDoc } from '../models.ts';
import { chatParams } from '../params.ts';

/** Mark as unread, and who follows a thread (for the inbox's reply entries). */
export const markUnreadActions = ({ models, store, access }: ChatDeps) => ({
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
      const { lastSeq, lastManySeq } = await store.counters.of(converseId);
      if (seq > lastSeq)
        throw invalid("'seq' is past the converse's last message", [
          { field: 'seq', type: 'max', message: `at most ${lastSeq}` },
        ]);
      const readSeq = seq - 1;
      // The mentions above the new position were dropped when they were read: find them again.
      const mentionSeqs = await store.read.mentioningAbove(converseId, userId, readSeq, MAX_KEPT_MENTIONS);
      await models.reads.updateOne({ userId, converseId }, { $set: { readSeq, mentionSeqs } }, { upsert: true });
      const many =
        lastManySeq > readSeq
          ? ((await store.read.unreadManySeqs(userId, [{ converseId, readSeq }])).get(converseId) ?? [])
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
        store.read.byId(rootId, { authorId: 1 }),
        models.follows.find({ rootId }, { userId: 1 }).limit(max).lean<Array<{ userId: Types.ObjectId }>>(),
      ]);
      const ids = new Set(follows.map((f) => f.userId.toHexString()));
      if (root) ids.add(root.authorId.toHexString());
      return [...ids];
    },
  },
});
