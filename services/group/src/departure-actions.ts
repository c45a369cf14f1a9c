import { announce, EVENTS, type ActionParams, type ActionResult, type Ctx } from '@im/sdk';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';
import { removeGroup } from './group-removal.ts';
import { removeMembership } from './member-removal.ts';
import { toGroupInfo } from './views.ts';

/** A deleted account's departure from every group it was in. */
export const departureActions = (deps: GroupDeps) => {
  const { models, store } = deps;
  /** Makes the longest-serving admin the owner; false when the group has no other admin. */
  const handOver = async (ctx: Ctx<object>, owner: MemberDoc): Promise<boolean> => {
    const heir = await store.updateMember(
      { groupId: owner.groupId, userId: { $ne: owner.userId }, role: 'admin' },
      { $set: { role: 'owner' } },
      { sort: { joinedAt: 1 }, new: true },
    );
    if (!heir) return false;
    const group = await store.updateGroup({ _id: owner.groupId }, { $set: { ownerId: heir.userId } }, { new: true });
    const groupId = owner.groupId.toHexString();
    announce(ctx, EVENTS.memberUpdated, {
      groupId,
      userId: heir.userId.toHexString(),
      role: 'owner',
      roleIds: (heir.roleIds ?? []).map((id) => id.toHexString()),
    });
    if (group) announce(ctx, EVENTS.groupUpdated, { group: toGroupInfo(group) });
    return true;
  };

  return {
    /**
     * Account deletion: the user leaves every group. A group they own passes
     * to its longest-serving admin, or is deleted when it has none. Safe to
     * run again after a partial failure.
     */
    forgetUser: {
      visibility: 'public' as const,
      params: groupParams.forgetUser,
      async handler(ctx: Ctx<ActionParams<'group.forgetUser'>>): Promise<ActionResult<'group.forgetUser'>> {
        const { userId } = ctx.params;
        // A deleted account's invites go with it: nobody is left to answer for who they let in.
        await models.invites.deleteMany({ createdBy: userId });
        const memberships = await models.members.find({ userId }).lean<MemberDoc[]>();
        for (const m of memberships) {
          if (m.role === 'owner' && !(await handOver(ctx, m))) {
            await removeGroup(deps, ctx, m.groupId);
            continue;
          }
          const group = await models.groups.findById(m.groupId, { panels: 1 }).lean<GroupDoc>();
          if (group) await removeMembership(deps, ctx, group, m);
          else await store.deleteMember({ _id: m._id }); // Its group is being deleted.
        }
      },
    },
  };
};
