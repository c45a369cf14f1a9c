import type { Message } from '@im/protocol';
import { callerId, limitReached, notFound, requirePermission, type Ctx, type Params } from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import { messageChange } from '../messages/message-change.ts';
import { messageViews } from '../messages/message-views.ts';
import { MAX_PINS } from '../store/converse-counters.ts';
import { threadParams } from '../threads/thread-params.ts';

/** Pins: holders of pinMessages in groups (owner and admins hold it), either member in a DM. */
export const pinActions = ({ models, store, access, voters }: ChatDeps) => {
  /** The message and the caller's access, when the caller may pin in its converse. */
  const loadPinnable = async (ctx: Ctx<object>, messageId: string, userId: string) => {
    const { doc, converse } = await access.requireMessage(ctx, messageId, userId);
    if (converse.kind === 'group') requirePermission(converse.permissions, 'pinMessages');
    return { doc, converse };
  };

  const { viewOf, announced } = messageChange({ models, voters });

  return {
    pin: {
      params: threadParams.pin,
      async handler(ctx: Ctx<Params<typeof threadParams.pin>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, converse } = await loadPinnable(ctx, ctx.params.messageId, userId);
        if (doc.deleted) throw notFound('message');
        if (doc.pinned) return viewOf(doc, userId);
        const pinned = await store.change.pin(doc, userId);
        if (pinned === 'full') throw limitReached(`A conversation has at most ${MAX_PINS} pinned messages`);
        if (pinned) return announced(ctx, pinned, converse, userId);
        // Deleted or pinned by someone else meanwhile.
        const now = await store.read.byId(doc._id);
        if (!now || now.deleted) throw notFound('message');
        return viewOf(now, userId);
      },
    },

    unpin: {
      params: threadParams.pin,
      async handler(ctx: Ctx<Params<typeof threadParams.pin>>): Promise<Message> {
        const userId = callerId(ctx);
        const { doc, converse } = await loadPinnable(ctx, ctx.params.messageId, userId);
        const unpinned = await store.change.unpin(doc);
        if (!unpinned) return viewOf(doc, userId);
        return announced(ctx, unpinned, converse, userId);
      },
    },

    /** Newest pin first (one query on the sparse index of pins). */
    pins: {
      params: threadParams.pins,
      async handler(ctx: Ctx<Params<typeof threadParams.pins>>): Promise<Message[]> {
        const userId = callerId(ctx);
        await access.require(ctx, ctx.params.converseId, userId);
        const docs = await store.read.pinned(ctx.params.converseId, MAX_PINS);
        return messageViews(models, docs, userId, voters);
      },
    },
  };
};
