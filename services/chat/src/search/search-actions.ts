import type { Message } from '@im/protocol';
import { call, callerId, defineActions, type Ctx, type Params } from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import { toMessage } from '../messages/views.ts';
import { chatParams } from '../params.ts';
import { planSearch } from './search-filter.ts';

export const searchActions = (deps: ChatDeps) => {
  const { store, access, voters } = deps;
  return defineActions('chat', {
    /**
     * Messages matching q, newest first, only from the caller's converses: its
     * words literally and ignoring case, its filters (from:, in:, has:, before:,
     * after:, during:) as search-query.ts reads them.
     */
    search: {
      params: chatParams.search,
      rateLimit: 'search',
      async handler(ctx: Ctx<Params<typeof chatParams.search>>): Promise<Message[]> {
        const userId = callerId(ctx);
        const [groups, dms] = await Promise.all([
          call(ctx, 'group.userConverses', { userId }),
          store.dms.ofMembers([userId]),
        ]);
        let converseIds = [...groups.flatMap((g) => g.converseIds), ...dms.map((d) => d._id.toHexString())];
        if (ctx.params.converseId) {
          await access.require(ctx, ctx.params.converseId, userId);
          converseIds = [ctx.params.converseId];
        }
        const plan = await planSearch(ctx, userId, ctx.params.q, ctx.params.tzOffset ?? 0, { converseIds, dms });
        if (plan.converseIds.length === 0) return [];
        const docs = await store.read.search(plan.converseIds, plan.filter, ctx.params.limit ?? 50);
        return voters.fill(
          docs.map((d) => toMessage(d)),
          userId,
        );
      },
    },
  });
};
