import type { Bot, PublicUser } from '@im/protocol';
import { announce, call, callerId, EVENTS, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { IntegrationDeps } from './deps.ts';

type ManagedBy = NonNullable<Bot['managedBy']>;

/** Tells every node of the service that the group's integrations changed. */
export const changed = (ctx: Ctx<object>, groupId: string, resetHookId?: string): void =>
  announce(ctx, EVENTS.integrationChanged, resetHookId ? { groupId, resetHookId } : { groupId });

/**
 * Makes a bot member of the group: the user (with a token unless a hook or
 * command manages it), the record that it is a bot here, then the
 * membership. A failure after the user exists removes it again. The caller
 * announces the change once its own writes are done (`changed`).
 */
export async function makeBot(
  { store }: Pick<IntegrationDeps, 'store'>,
  ctx: Ctx<object>,
  groupId: string,
  name: string,
  managedBy?: ManagedBy,
): Promise<{ user: PublicUser; token?: string }> {
  const made = await call(ctx, 'user.createBot', {
    groupId,
    name,
    createdBy: callerId(ctx),
    ...(managedBy ? { managedBy } : {}),
  });
  try {
    await store.insertBot({
      _id: new Types.ObjectId(made.user.id),
      groupId: new Types.ObjectId(groupId),
      ...(managedBy ? { managedBy: { kind: managedBy.kind, id: new Types.ObjectId(managedBy.id) } } : {}),
    });
    await call(ctx, 'group.addBot', { groupId, userId: made.user.id });
  } catch (err) {
    await removeBot({ store }, ctx, groupId, made.user.id).catch(() => undefined);
    throw err;
  }
  return made;
}

/**
 * Ends a bot: its tokens at once, then its membership and record. False when
 * the group has no such bot. The caller announces the change (`changed`).
 */
export async function removeBot(
  { store }: Pick<IntegrationDeps, 'store'>,
  ctx: Ctx<object>,
  groupId: string,
  botId: string,
): Promise<boolean> {
  const removed = await call(ctx, 'user.removeBot', { groupId, botId });
  await call(ctx, 'group.removeBot', { groupId, userId: botId });
  await store.deleteBot(groupId, botId);
  return removed;
}
