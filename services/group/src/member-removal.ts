import { announce, EVENTS, type Ctx } from '@im/sdk';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { leaveUserGroups } from './usergroup-actions.ts';
import { converseIdsOf } from './views.ts';

/**
 * Takes a member out of a group (leave, kick, ban): the membership, the
 * count, the cached role, then the event. False when someone else removed
 * them first (nothing more is done then).
 */
export async function removeMembership(
  { models, store, rooms }: Pick<GroupDeps, 'models' | 'store' | 'rooms'>,
  ctx: Ctx<unknown>,
  group: Pick<GroupDoc, '_id' | 'panels'>,
  member: Pick<MemberDoc, '_id' | 'userId' | 'role'>,
  removedBy?: string,
): Promise<boolean> {
  if (!(await store.deleteMember({ _id: member._id }))) return false;
  const groupId = group._id.toHexString();
  const userId = member.userId.toHexString();
  await store.updateGroup({ _id: group._id }, { $inc: { memberCount: -1 } });
  // Someone who leaves is no longer allowed by name in private panels: coming back does not restore it.
  const named = group.panels.filter((p) => p.allowUserIds?.some((id) => id.equals(member.userId)));
  for (const panel of named)
    await store.updateGroup(
      { _id: group._id, 'panels._id': panel._id },
      { $pull: { 'panels.$.allowUserIds': member.userId } },
    );
  await leaveUserGroups({ models, store }, ctx, groupId, userId);
  await rooms.left(groupId, userId);
  announce(ctx, EVENTS.memberLeft, {
    groupId,
    userId,
    role: member.role,
    converseIds: converseIdsOf(group),
    ...(removedBy ? { removedBy } : {}),
  });
  return true;
}
