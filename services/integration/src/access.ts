import type { MemberAccess } from '@im/protocol';
import { call, callerId, notFound, requirePermission, type Ctx, type MissingThing } from '@im/sdk';
import { Types, type Model } from 'mongoose';
import { newSecret } from './signing.ts';

/** The caller's standing in the group: a group they are not in does not exist for them (404). */
export async function requireMember(ctx: Ctx<object>, groupId: string): Promise<MemberAccess> {
  const access = await call(ctx, 'group.memberAccess', { groupId, userId: callerId(ctx) });
  if (!access) throw notFound('group');
  return access;
}

/** A member who may set up the group's bots, hooks and commands (manageIntegrations), else 404 or 403. */
export async function requireIntegrationManager(ctx: Ctx<object>, groupId: string): Promise<MemberAccess> {
  const access = await requireMember(ctx, groupId);
  requirePermission(access.permissions, 'manageIntegrations');
  return access;
}

/** A panel of the group, with its converse; 404 otherwise. */
export async function requirePanel(ctx: Ctx<object>, groupId: string, panelId: string) {
  const panel = await call(ctx, 'group.panelInfo', { panelId });
  if (!panel || panel.groupId !== groupId) throw notFound('panel');
  return panel;
}

/**
 * A hook or command of the group with a new secret; 404 when the group has no
 * such one. A suspended one works again from here: its old secret was known
 * to the admin who made it, the new one only to the admin renewing it, who
 * from then on holds it (`secretHolder`): their removal suspends it.
 */
export async function withNewSecret<T extends { secret: string }>(
  model: Model<T>,
  groupId: string,
  id: string,
  what: MissingThing,
  renewedBy: string,
): Promise<T> {
  const doc = await model
    .findOneAndUpdate(
      { _id: id, groupId },
      { $set: { secret: newSecret(), secretHolder: new Types.ObjectId(renewedBy) }, $unset: { suspendedAt: 1 } },
      { new: true },
    )
    .lean<T>();
  if (!doc) throw notFound(what);
  return doc;
}
