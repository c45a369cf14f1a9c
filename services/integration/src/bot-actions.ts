import type { Bot, BotWithToken } from '@im/protocol';
import { call, type Params, type Ctx, notFound } from '@im/sdk';
import { requireIntegrationManager } from './access.ts';
import { changed, makeBot, removeBot } from './bots.ts';
import type { IntegrationDeps } from './deps.ts';
import { integrationParams as p } from './params.ts';

/** Bots made by group admins, with tokens for the API within the group. */
export const botActions = (deps: IntegrationDeps) => ({
  createBot: {
    params: p.createBot,
    rateLimit: 'moderate' as const,
    async handler(ctx: Ctx<Params<typeof p.createBot>>): Promise<BotWithToken> {
      await requireIntegrationManager(ctx, ctx.params.groupId);
      const { user, token } = await makeBot(deps, ctx, ctx.params.groupId, ctx.params.name);
      changed(ctx, ctx.params.groupId);
      return { bot: user, token: token! };
    },
  },

  listBots: {
    params: p.listBots,
    async handler(ctx: Ctx<Params<typeof p.listBots>>): Promise<Bot[]> {
      await requireIntegrationManager(ctx, ctx.params.groupId);
      return call(ctx, 'user.listBots', { groupId: ctx.params.groupId });
    },
  },

  botToken: {
    params: p.botRef,
    rateLimit: 'moderate' as const,
    async handler(ctx: Ctx<Params<typeof p.botRef>>): Promise<BotWithToken> {
      await requireIntegrationManager(ctx, ctx.params.groupId);
      const issued = await call(ctx, 'user.botToken', { groupId: ctx.params.groupId, botId: ctx.params.botId });
      if (!issued) throw notFound('bot');
      return { bot: issued.user, token: issued.token };
    },
  },

  removeBot: {
    params: p.botRef,
    rateLimit: 'moderate' as const,
    async handler(ctx: Ctx<Params<typeof p.botRef>>): Promise<void> {
      await requireIntegrationManager(ctx, ctx.params.groupId);
      const bot = await deps.models.bots.findOne({ _id: ctx.params.botId, groupId: ctx.params.groupId }).lean();
      // A hook's or command's bot goes with it.
      if (!bot || bot.managedBy) throw notFound('bot');
      if (!(await removeBot(deps, ctx, ctx.params.groupId, ctx.params.botId))) throw notFound('bot');
      changed(ctx, ctx.params.groupId);
    },
  },
});
