import type { FollowedThread, FollowedThreadPage, Message } from '@im/protocol';
import { announce, callerId, EVENTS, type Ctx, type Params } from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import { messageViews } from '../messages/message-views.ts';
import type { ThreadFollowDoc } from './thread-follows.ts';
import { threadParams } from './thread-params.ts';
import { visibleConverseIds } from '../converses/visible-converses.ts';
import { olderThanCursor, timeCursorOf } from '../personal/time-cursor.ts';

/** Threads: a root's replies, the threads I follow, and my read position in one. */
export const threadActions = ({ models, store, access, voters }: ChatDeps) => {
  return {
    /** A thread's replies by seq, above `after` (one query on the sparse index of replies). */
    thread: {
      params: threadParams.thread,
      async handler(ctx: Ctx<Params<typeof threadParams.thread>>): Promise<Message[]> {
        const userId = callerId(ctx);
        const { doc: root } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        const { after, limit = 50 } = ctx.params;
        const docs = await store.read.replies(root._id, after, limit);
        return messageViews(models, docs, userId, voters);
      },
    },

    /** The threads I follow in converses I can still see, newest activity first, with unread counts. */
    threads: {
      params: threadParams.threads,
      async handler(ctx: Ctx<Params<typeof threadParams.threads>>): Promise<FollowedThreadPage> {
        const userId = callerId(ctx);
        const { cursor, limit = 20 } = ctx.params;
        const converseIds = await visibleConverseIds(ctx, store.dms, userId);
        const follows = await models.follows
          .find({ userId, converseId: { $in: converseIds }, ...olderThanCursor('lastReplyAt', cursor) })
          .sort({ lastReplyAt: -1, _id: -1 })
          .limit(limit + 1)
          .lean<ThreadFollowDoc[]>();
        const more = follows.length > limit;
        const page = follows.slice(0, limit);
        const [roots, unread] = await Promise.all([
          store.read.byIds(page.map((f) => f.rootId)),
          store.read.unreadReplies(page),
        ]);
        const views = new Map((await messageViews(models, roots, userId, voters)).map((m) => [m.id, m]));
        const items = page.flatMap((f): FollowedThread[] => {
          const root = views.get(f.rootId.toHexString());
          if (!root) return [];
          return [
            {
              root,
              converseId: f.converseId.toHexString(),
              lastReplyAt: f.lastReplyAt.toISOString(),
              unread: unread.get(f.rootId.toHexString()) ?? 0,
              readSeq: f.readSeq,
            },
          ];
        });
        const last = page.at(-1);
        return {
          items,
          nextCursor: more && last ? timeCursorOf(last.lastReplyAt, last._id) : null,
        };
      },
    },

    /** Replies up to `seq` are read (never moves back); a thread I do not follow has nothing to mark. */
    threadAck: {
      params: threadParams.threadAck,
      async handler(ctx: Ctx<Params<typeof threadParams.threadAck>>): Promise<void> {
        const userId = callerId(ctx);
        const { doc: root } = await access.requireMessage(ctx, ctx.params.messageId, userId);
        await models.follows.updateOne({ userId, rootId: root._id }, { $max: { readSeq: ctx.params.seq } });
        const [converseId, rootId] = [root.converseId.toHexString(), root._id.toHexString()];
        announce(ctx, EVENTS.threadRead, { userId, converseId, rootId, readSeq: ctx.params.seq });
      },
    },
  };
};
