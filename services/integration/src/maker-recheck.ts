import { call, type EventContext } from '@im/sdk';
import { Types } from 'mongoose';
import type { IntegrationDeps } from './deps.ts';
import { suspendIntegrationsOf } from './maker-removal.ts';

/** The events after which someone may have lost manageIntegrations. */
type RecheckContext = EventContext<'group.member.updated'> | EventContext<'group.roles.updated'>;

/**
 * Whoever of `userIds` no longer may manage the group's integrations (no
 * longer a member, or none of their roles holds manageIntegrations any more)
 * has what they made there suspended, as when they leave. The group
 * service drops its cached standing before it announces a change, so the
 * answer read here is the new one.
 */
export async function suspendForLostPermission(
  deps: Pick<IntegrationDeps, 'models' | 'store'>,
  ctx: RecheckContext,
  groupId: string,
  userIds: Iterable<string>,
): Promise<void> {
  for (const userId of new Set(userIds)) {
    const access = await call(ctx, 'group.memberAccess', { groupId, userId });
    if (!access?.permissions.includes('manageIntegrations')) await suspendIntegrationsOf(deps, ctx, groupId, userId);
  }
}

/**
 * Who holds a working secret or bot token of the group: the makers a change
 * of the group's roles may concern (a handful per group, whatever its size).
 */
export async function makersOf(
  { models }: Pick<IntegrationDeps, 'models'>,
  ctx: RecheckContext,
  groupId: string,
): Promise<string[]> {
  const working = { groupId: new Types.ObjectId(groupId), suspendedAt: { $exists: false } };
  const fields = { createdBy: 1, secretHolder: 1 };
  const lists = await Promise.all([
    models.incoming.find(working, fields).lean<HolderFields[]>(),
    models.outgoing.find(working, fields).lean<HolderFields[]>(),
    models.commands.find(working, fields).lean<HolderFields[]>(),
  ]);
  const makers = new Set(lists.flat().map((d) => (d.secretHolder ?? d.createdBy).toHexString()));
  // Most groups have no bot with a token of its own: only then is the user service asked.
  if (await models.bots.exists({ groupId, managedBy: { $exists: false } }))
    for (const bot of await call(ctx, 'user.listBots', { groupId })) if (!bot.managedBy) makers.add(bot.createdBy);
  return [...makers];
}

interface HolderFields {
  createdBy: Types.ObjectId;
  secretHolder?: Types.ObjectId;
}
