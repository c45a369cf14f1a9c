import { announce, call, callOnEveryNode, EVENTS, type Ctx } from '@im/sdk';
import type { Types } from 'mongoose';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc } from './models.ts';
import { converseIdsOf } from './views.ts';

/**
 * Deletes a group and all of it, then tells everyone. The group document
 * goes first: once it is gone nothing of it is reachable, even if removing
 * the rest is interrupted. False when it was already gone (or `ownerId`
 * does not own it).
 */
export async function removeGroup(
  { models, membership, rooms }: Pick<GroupDeps, 'models' | 'membership' | 'rooms'>,
  ctx: Ctx<unknown>,
  groupId: Types.ObjectId | string,
  ownerId?: string,
): Promise<boolean> {
  const group = await models.groups
    .findOneAndDelete({ _id: groupId, ...(ownerId ? { ownerId } : {}) })
    .lean<GroupDoc>();
  if (!group) return false;
  const converseIds = converseIdsOf(group);
  await Promise.all([
    models.members.deleteMany({ groupId: group._id }),
    models.invites.deleteMany({ groupId: group._id }),
    models.bans.deleteMany({ groupId: group._id }),
    models.userGroups.deleteMany({ groupId: group._id }),
    membership.forgetUserGroups(group._id.toHexString()),
    membership.forgetConverses(converseIds),
    ...(group.visibility === 'public' ? [callOnEveryNode(ctx, 'gateway.forgetPublic', { converseIds })] : []),
    ...(group.icon
      ? [call(ctx, 'file.removeGroupIcon', { fileId: group.icon.toHexString(), groupId: group._id.toHexString() })]
      : []),
  ]);
  await rooms.deleted(group._id.toHexString());
  announce(ctx, EVENTS.groupDeleted, { groupId: group._id.toHexString(), converseIds });
  return true;
}
