import { type ActionParams, type ActionResult, type Ctx, notFound } from '@im/sdk';
import type { GroupDeps } from './deps.ts';
import { addMember } from './member-join.ts';
import { removeMembership } from './member-removal.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { groupParams } from './params.ts';

/**
 * Bots join and leave their group through the integration service, which
 * checked the caller is the group's admin: no invite, no ban check (a new
 * user cannot be banned), always a plain member.
 */
export const botMemberActions = (deps: GroupDeps) => ({
  addBot: {
    visibility: 'public' as const,
    params: groupParams.botMember,
    async handler(ctx: Ctx<ActionParams<'group.addBot'>>): Promise<ActionResult<'group.addBot'>> {
      const group = await deps.models.groups.findById(ctx.params.groupId).lean<GroupDoc>();
      if (!group) throw notFound('group');
      await addMember(deps, ctx, group, ctx.params.userId);
    },
  },

  removeBot: {
    visibility: 'public' as const,
    params: groupParams.botMember,
    async handler(ctx: Ctx<ActionParams<'group.removeBot'>>): Promise<ActionResult<'group.removeBot'>> {
      const { groupId, userId } = ctx.params;
      const [group, member] = await Promise.all([
        deps.models.groups.findById(groupId, { panels: 1 }).lean<GroupDoc>(),
        deps.models.members.findOne({ groupId, userId }).lean<MemberDoc>(),
      ]);
      if (group && member) await removeMembership(deps, ctx, group, member);
    },
  },
});
