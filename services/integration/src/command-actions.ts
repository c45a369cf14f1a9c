import { BUILT_IN_COMMAND_TRIGGERS, type SlashCommand, type SlashCommandWithSecret } from '@im/protocol';
import {
  callerId,
  isDuplicateKeyError,
  type Params,
  type Ctx,
  conflict,
  limitReached,
  defineActions,
  notFound,
} from '@im/sdk';
import { Types } from 'mongoose';
import { requireIntegrationManager, requireMember } from './access.ts';
import { changed, makeBot, removeBot } from './bots.ts';
import type { IntegrationDeps } from './deps.ts';
import type { CommandDoc } from './models.ts';
import { integrationParams as p } from './params.ts';
import { newSecret } from './signing.ts';
import { toCommand } from './views.ts';

const MAX_PER_GROUP = 50;
/** Built in: a group cannot register these. */
const BUILT_IN_COMMANDS = new Set<string>(BUILT_IN_COMMAND_TRIGGERS);

/** Slash commands a group registers: `/trigger args` in any of its panels calls the command's URL. */
export const commandActions = (deps: IntegrationDeps) => {
  const { models, store, outbound } = deps;

  return defineActions('integration', {
    createCommand: {
      params: p.createCommand,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.createCommand>>): Promise<SlashCommandWithSecret> {
        const { groupId, trigger, url, description } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        if (BUILT_IN_COMMANDS.has(trigger)) throw conflict(`/${trigger} is built in`);
        await outbound.check(url, 'url');
        if ((await models.commands.countDocuments({ groupId })) >= MAX_PER_GROUP)
          throw limitReached(`A group has at most ${MAX_PER_GROUP} commands`);
        if (await models.commands.exists({ groupId, trigger })) throw conflict(`The group already has /${trigger}`);
        const _id = new Types.ObjectId();
        const { user } = await makeBot(deps, ctx, groupId, `/${trigger}`, { kind: 'command', id: _id.toHexString() });
        const doc: CommandDoc = {
          _id,
          groupId: new Types.ObjectId(groupId),
          trigger,
          url,
          ...(description ? { description } : {}),
          secret: newSecret(),
          botId: new Types.ObjectId(user.id),
          createdBy: new Types.ObjectId(callerId(ctx)),
          createdAt: new Date(),
        };
        try {
          await store.insertCommand(doc);
        } catch (err) {
          // Registered twice at once: the other one stands.
          await removeBot(deps, ctx, groupId, user.id);
          if (isDuplicateKeyError(err)) throw conflict(`The group already has /${trigger}`);
          throw err;
        }
        changed(ctx, groupId);
        return { ...toCommand(doc, true), url, secret: doc.secret };
      },
    },

    /** Any member may list them (the composer suggests them); only holders of manageIntegrations see the URLs. */
    listCommands: {
      params: p.listCommands,
      async handler(ctx: Ctx<Params<typeof p.listCommands>>): Promise<SlashCommand[]> {
        const { permissions } = await requireMember(ctx, ctx.params.groupId);
        const docs = await models.commands
          .find({ groupId: ctx.params.groupId })
          .sort({ trigger: 1 })
          .lean<CommandDoc[]>();
        return docs.map((d) => toCommand(d, permissions.includes('manageIntegrations')));
      },
    },

    rotateCommand: {
      params: p.commandRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.commandRef>>): Promise<SlashCommandWithSecret> {
        await requireIntegrationManager(ctx, ctx.params.groupId);
        const doc = await store.renewCommandSecret(ctx.params.groupId, ctx.params.commandId, 'command', callerId(ctx));
        changed(ctx, ctx.params.groupId);
        return { ...toCommand(doc, true), url: doc.url, secret: doc.secret };
      },
    },

    removeCommand: {
      params: p.commandRef,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof p.commandRef>>): Promise<void> {
        const { groupId, commandId } = ctx.params;
        await requireIntegrationManager(ctx, groupId);
        const doc = await store.deleteCommand(groupId, commandId);
        if (!doc) throw notFound('command');
        await removeBot(deps, ctx, groupId, doc.botId.toHexString());
        changed(ctx, groupId);
      },
    },
  });
};
