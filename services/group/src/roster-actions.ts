import type { ActionParams, ActionResult, Ctx } from '@im/sdk';
import type { FilterQuery } from 'mongoose';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';
import type { PanelAudience } from './permissions.ts';

/**
 * The members of a group who see a private panel: owner, admins, holders of
 * an allowed role and the users allowed by name (the same rule as maySee,
 * as a query on the indexed fields).
 */
const audienceFilter = (groupId: string, audience: PanelAudience): FilterQuery<MemberDoc> => ({
  groupId,
  $or: [
    { role: { $in: ['owner', 'admin'] } },
    ...(audience.roleIds.length > 0 ? [{ roleIds: { $in: audience.roleIds } }] : []),
    ...(audience.userIds.length > 0 ? [{ userId: { $in: audience.userIds } }] : []),
  ],
});

/**
 * Who is in a panel, for the features that count or list them (@all, @here,
 * read receipts): the group's members, or for a private panel only those
 * who see it.
 */
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
      const { groupId } = home;
      const rules = await membership.rules(groupId);
      if (!rules) return null;
      const audience = rules.privatePanels[ctx.params.converseId];
      let memberCount: number;
      if (audience) {
        memberCount = await models.members.countDocuments(audienceFilter(groupId, audience));
      } else {
        const group = await models.groups.findById(groupId, { memberCount: 1 }).lean<Pick<GroupDoc, 'memberCount'>>();
        if (!group) return null;
        memberCount = group.memberCount;
      }
      if (memberCount > ctx.params.maxIds) return { groupId, memberCount, memberIds: null };
      const rows = await models.members
        .find(audience ? audienceFilter(groupId, audience) : { groupId }, { userId: 1 })
        .lean<MemberDoc[]>();
      return { groupId, memberCount, memberIds: rows.map((r) => r.userId.toHexString()) };
    },
  },
});
