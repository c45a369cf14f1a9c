import type { ActionParams, ActionResult } from '@im/sdk';
import type { Ctx, GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';

/** Who is in a panel's group, for the features that count or list them (@all, @here, read receipts). */
export const rosterActions = ({ models, membership }: GroupDeps) => ({
  /**
   * The member count always (one indexed read); the ids only up to `maxIds`
   * members, so a caller that needs a small group's members never loads a
   * large group's by mistake.
   */
  converseRoster: {
    visibility: 'public' as const,
    params: groupParams.converseRoster,
    async handler(ctx: Ctx<ActionParams<'group.converseRoster'>>): Promise<ActionResult<'group.converseRoster'>> {
      const home = await membership.panelHome(ctx.params.converseId);
      if (!home) return null;
      const group = await models.groups
        .findById(home.groupId, { memberCount: 1 })
        .lean<Pick<GroupDoc, 'memberCount'>>();
      if (!group) return null;
      const memberCount = group.memberCount;
      if (memberCount > ctx.params.maxIds) return { groupId: home.groupId, memberCount, memberIds: null };
      const rows = await models.members.find({ groupId: home.groupId }, { userId: 1 }).lean<MemberDoc[]>();
      return { groupId: home.groupId, memberCount, memberIds: rows.map((r) => r.userId.toHexString()) };
    },
  },
});
