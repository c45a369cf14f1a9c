import { announce, call, callOnEveryNode, EVENTS, type Ctx } from '@im/sdk';
import type { Types } from 'mongoose';
import type { GroupDeps } from './deps.ts';
import { converseIdsOf } from './views.ts';

/**
 * Deletes a group and all of it, then tells everyone. The group document
 * goes first: once it is gone nothing of it is reachable, even if removing
 * the rest is interrupted. False when it was already gone (or `ownerId`
 * does not own it).
 */
export async function removeGroup(
  { models, store, rooms }: Pick<GroupDeps, 'models' | 'store' | 'rooms'>,
  ctx: Ctx<unknown>,
  groupId: Types.ObjectId | string,
  ownerId?: string,
): Promise<boolean> {
  // The group document first: once it is gone nothing of it is reachable.
  const group = await store.deleteGroup({ _id: groupId, ...(ownerId ? { ownerId } : {}) });
  if (!group) return false;
  const converseIds = converseIdsOf(group);
  await Promise.all([
    models.invites.deleteMany({ groupId: group._id }),
    models.bans.deleteMany({ groupId: group._id }),
    ...(group.visibility === 'public' ? [callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds })] : []),
    ...(group.icon
      ? [call(ctx, 'file.removeGroupIcon', { fileId: group.icon.toHexString(), groupId: group._id.toHexString() })]
      : []),
  ]);
  await rooms.deleted(group._id.toHexString());
  announce(ctx, EVENTS.groupDeleted, { groupId: group._id.toHexString(), converseIds });
  return true;
}
