import { call, type EventContext } from '@im/sdk';
import type { IntegrationDeps } from './deps.ts';

/**
 * A deleted group's integrations go: its bots' tokens end, its hooks and
 * commands are removed (waiting deliveries then end as failed). Every node of
 * the service hears the event; each step is harmless when done twice.
 */
export async function forgetGroup(
  { models, store }: Pick<IntegrationDeps, 'models' | 'store'>,
  ctx: EventContext<'group.deleted'>,
  groupId: string,
): Promise<void> {
  const bots = await models.bots.find({ groupId }, { _id: 1 }).lean();
  for (const bot of bots) await call(ctx, 'user.removeBot', { groupId, botId: bot._id.toHexString() });
  await Promise.all([models.incoming.deleteMany({ groupId }), store.deleteGroup(groupId)]);
}
