import { call, type EventContext } from '@im/sdk';
import { Types } from 'mongoose';
import { changed } from './bots.ts';
import type { IntegrationDeps } from './deps.ts';

/**
 * Someone may no longer manage a group's integrations (left, kicked,
 * banned, account deleted; or demoted, or lost manageIntegrations with a
 * role): what they made there must not keep working for them.
 * The incoming and outgoing hooks and commands whose secret they hold (made
 * by them and not renewed since, or renewed by them) are suspended (the hook URL
 * answers 404, nothing is delivered to their URLs, the command is not
 * called) until a current manager renews the secret, which only that
 * manager then knows; the tokens of the bots they made end (a manager gives
 * a new one). Nothing is deleted, so renewing keeps the group's set-up. Every node
 * of the service hears the event; each step is harmless when done twice.
 * Incoming hooks are suspended last: once one shows it, the rest holds.
 */
export async function suspendIntegrationsOf(
  { models, store }: Pick<IntegrationDeps, 'models' | 'store'>,
  ctx: EventContext<'group.member.left'> | EventContext<'group.member.updated'> | EventContext<'group.roles.updated'>,
  groupId: string,
  userId: string,
): Promise<void> {
  const user = new Types.ObjectId(userId);
  // Those whose secret they hold: renewed by them, or made by them and never renewed.
  const made = {
    groupId: new Types.ObjectId(groupId),
    $or: [{ secretHolder: user }, { secretHolder: { $exists: false }, createdBy: user }],
    suspendedAt: { $exists: false },
  };
  const suspend = { $set: { suspendedAt: new Date() } };
  // Most groups have no bot with a token of its own: only then is the user service asked.
  if (await models.bots.exists({ groupId, managedBy: { $exists: false } })) {
    const bots = await call(ctx, 'user.listBots', { groupId });
    for (const bot of bots)
      if (bot.createdBy === userId && !bot.managedBy) await call(ctx, 'user.endBotToken', { groupId, botId: bot.id });
  }
  // The store drops this node's copy at once (the next message must not reach them); the other nodes' go by the event.
  if ((await store.updateHooksAndCommands(groupId, made, suspend)) > 0) changed(ctx, groupId);
  await models.incoming.updateMany(made, suspend);
}
