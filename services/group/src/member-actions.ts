import type { Member, MemberPage, UserGroupConverses } from '@im/protocol';
import {
  announce,
  batchLoader,
  call,
  callerId,
  EVENTS,
  groupBy,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
  forbidden,
} from '@im/sdk';
import { lacking, loadForMember, OWNER, refusalToModerate, standingOf } from './access.ts';
import { maySee, NOBODY, rulesOf } from './permissions.ts';
import type { IndexedGroup } from './room-index.ts';
import { groupParams } from './params.ts';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { auditMemberAction } from './member-audit.ts';
import { removeMembership } from './member-removal.ts';
import { activeMute } from './views.ts';
import { toMemberView } from './member-view.ts';
import { announceMemberAudience } from './panel-audience.ts';

/** A user's rooms list at most this many groups. */
export const MAX_GROUPS_PER_USER = 1000;

export const memberActions = ({ models, store, membership, audit, rooms }: GroupDeps) => {
  // Batched per turn of the event loop: a connect storm asks for thousands of users at once.
  const groupIdsOf = batchLoader<string, string[]>(async (userIds) => {
    const rows = await models.members.find({ userId: { $in: userIds } }, { groupId: 1, userId: 1 }).lean<MemberDoc[]>();
    const byUser = groupBy(rows, (r) => r.userId.toHexString());
    return userIds.map((id) =>
      (byUser.get(id) ?? []).slice(0, MAX_GROUPS_PER_USER).map((r) => r.groupId.toHexString()),
    );
  });
  const groupRooms = batchLoader<string, Pick<GroupDoc, '_id' | 'panels' | 'memberCount'> | null>(async (ids) => {
    const docs = await models.groups
      .find({ _id: { $in: ids } }, { 'panels.converseId': 1, 'panels.private': 1, memberCount: 1 })
      .lean<Array<Pick<GroupDoc, '_id' | 'panels' | 'memberCount'>>>();
    const byId = new Map(docs.map((d) => [d._id.toHexString(), d]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  /** A user's groups with only the private panels they may see (a group without any costs nothing more). */
  const withVisiblePanels = (userId: string, groups: IndexedGroup[]): Promise<UserGroupConverses[]> =>
    Promise.all(
      groups.map(async ({ groupId, memberCount, converseIds, privateConverseIds }) => {
        if (privateConverseIds.length === 0) return { groupId, memberCount, converseIds };
        const [standing, rules] = await Promise.all([membership.standing(groupId, userId), membership.rules(groupId)]);
        const seen =
          standing && rules
            ? privateConverseIds.filter((id) => maySee(standing, userId, rules.privatePanels[id] ?? NOBODY))
            : [];
        return { groupId, memberCount, converseIds: [...converseIds, ...seen] };
      }),
    );

  return {
    /** Members by join order (cursor = last member id seen). */
    members: {
      params: groupParams.members,
      async handler(ctx: Ctx<Params<typeof groupParams.members>>): Promise<MemberPage> {
        await loadForMember(models, ctx.params.groupId, callerId(ctx));
        const limit = ctx.params.limit ?? 50;
        const filter = {
          groupId: ctx.params.groupId,
          ...(ctx.params.cursor ? { _id: { $gt: ctx.params.cursor } } : {}),
        };
        const docs = await models.members
          .find(filter)
          .sort({ _id: 1 })
          .limit(limit + 1)
          .lean<MemberDoc[]>();
        const page = docs.slice(0, limit);
        const users = await call(ctx, 'user.getMany', { ids: page.map((m) => m.userId.toHexString()) });
        return {
          // Members whose account was deleted are left out.
          items: page.flatMap((m) => {
            const user = users[m.userId.toHexString()];
            return user ? [toMemberView(m, user)] : [];
          }),
          nextCursor: docs.length > limit ? page.at(-1)!._id.toHexString() : null,
        };
      },
    },

    /**
     * Leave (yourself) or kick (owner: anyone else; admin: plain members).
     * A kick revokes the invites the member made, as a ban does; someone who
     * leaves keeps theirs working (links they handed out stay valid; admins
     * can revoke them from the list).
     */
    removeMember: {
      params: groupParams.removeMember,
      async handler(ctx: Ctx<Params<typeof groupParams.removeMember>>): Promise<void> {
        const me = callerId(ctx);
        const { group, me: mine, permissions } = await loadForMember(models, ctx.params.groupId, me);
        const target =
          ctx.params.userId === me
            ? mine
            : await models.members.findOne({ groupId: group._id, userId: ctx.params.userId }).lean<MemberDoc>();
        if (!target) throw notFound('member');
        if (target.role === 'owner') {
          throw forbidden(
            target === mine ? 'The owner cannot leave; delete the group instead' : 'The owner cannot be removed',
          );
        }
        if (target !== mine) {
          if (!permissions.includes('kickMembers')) throw lacking('kickMembers');
          const refusal = refusalToModerate(standingOf(mine), standingOf(target), rulesOf(group), {
            base: 'remove',
            past: 'removed',
          });
          if (refusal) throw forbidden(refusal);
        }
        const removed = await removeMembership(
          { models, store, rooms },
          ctx,
          group,
          target,
          target === mine ? undefined : me,
        );
        if (!removed) return; // Removed concurrently: nothing more to do.
        if (target !== mine) await models.invites.deleteMany({ groupId: group._id, createdBy: target.userId });
        if (target !== mine)
          await auditMemberAction(audit, ctx, {
            actorId: me,
            action: 'member.kick',
            userId: ctx.params.userId,
            groupId: ctx.params.groupId,
          });
      },
    },

    setRole: {
      params: groupParams.setRole,
      async handler(ctx: Ctx<Params<typeof groupParams.setRole>>): Promise<Member> {
        const actorId = callerId(ctx);
        const { group } = await loadForMember(models, ctx.params.groupId, actorId, OWNER);
        const before = await store.updateMember(
          { groupId: ctx.params.groupId, userId: ctx.params.userId, role: { $ne: 'owner' } },
          { $set: { role: ctx.params.role } },
        );
        if (!before) {
          const exists = await models.members.exists({ groupId: ctx.params.groupId, userId: ctx.params.userId });
          throw exists ? forbidden("The owner's role cannot change") : notFound('member');
        }
        const updated: MemberDoc = { ...before, role: ctx.params.role };
        const mutedUntil = activeMute(updated);
        announce(ctx, EVENTS.memberUpdated, {
          groupId: ctx.params.groupId,
          userId: ctx.params.userId,
          role: ctx.params.role,
          ...(before.role !== ctx.params.role ? { previousRole: before.role } : {}),
          roleIds: (before.roleIds ?? []).map((id) => id.toHexString()),
          ...(mutedUntil ? { mutedUntil } : {}),
        });
        // Admins see every private panel: one made admin gains them, one made member again may lose them.
        announceMemberAudience(ctx, group, ctx.params.userId, standingOf(before), standingOf(updated));
        if (before.role !== ctx.params.role)
          await auditMemberAction(audit, ctx, {
            actorId: actorId,
            action: 'member.role',
            userId: ctx.params.userId,
            groupId: ctx.params.groupId,
            details: { from: before.role, to: ctx.params.role },
          });
        const users = await call(ctx, 'user.getMany', { ids: [ctx.params.userId] });
        const user = users[ctx.params.userId];
        if (!user) throw notFound('member');
        return toMemberView(updated, user);
      },
    },

    /** For the chat service's every send: the caller's role in the converse's group, or null. Cached. */
    converseMember: {
      visibility: 'public' as const,
      params: groupParams.converseMember,
      handler(ctx: Ctx<ActionParams<'group.converseMember'>>): Promise<ActionResult<'group.converseMember'>> {
        return membership.converseMember(ctx.params.converseId, ctx.params.userId);
      },
    },

    /** For a send: the sender and every user it mentions checked at once (one call however many). Cached. */
    converseMembers: {
      visibility: 'public' as const,
      params: groupParams.converseMembers,
      handler(ctx: Ctx<ActionParams<'group.converseMembers'>>): Promise<ActionResult<'group.converseMembers'>> {
        return membership.converseMembers(ctx.params.converseId, ctx.params.userIds, ctx.params.handles);
      },
    },

    /** A user's role in a group, or null: how other services check group admins (moderation). Cached. */
    memberRole: {
      visibility: 'public' as const,
      params: groupParams.memberRole,
      handler(ctx: Ctx<ActionParams<'group.memberRole'>>): Promise<ActionResult<'group.memberRole'>> {
        return membership.role(ctx.params.groupId, ctx.params.userId);
      },
    },

    /** For presence: which of `ids` share a group with the user (one indexed query over the user's groups). */
    coMembersAmong: {
      visibility: 'public' as const,
      params: groupParams.coMembersAmong,
      async handler(ctx: Ctx<ActionParams<'group.coMembersAmong'>>): Promise<ActionResult<'group.coMembersAmong'>> {
        const { userId, ids } = ctx.params;
        if (ids.length === 0) return [];
        const indexed = await rooms.userConverses(userId);
        const groupIds = indexed ? indexed.map((g) => g.groupId) : await groupIdsOf(userId);
        if (groupIds.length === 0) return [];
        const rows = await models.members
          .find({ userId: { $in: ids }, groupId: { $in: groupIds } }, { userId: 1 })
          .lean<Array<Pick<MemberDoc, 'userId'>>>();
        return [...new Set(rows.map((r) => r.userId.toHexString()))];
      },
    },

    /**
     * Every group of a user with its converses (unread summary, search,
     * realtime rooms): from the room index, else in two indexed queries.
     */
    userConverses: {
      visibility: 'public' as const,
      params: groupParams.userConverses,
      async handler(ctx: Ctx<Params<typeof groupParams.userConverses>>): Promise<UserGroupConverses[]> {
        const { userId } = ctx.params;
        const indexed = await rooms.userConverses(userId);
        if (indexed) return withVisiblePanels(userId, indexed);
        const groupIds = await groupIdsOf(userId);
        const groups = (await Promise.all(groupIds.map(groupRooms))).filter((g) => g !== null);
        // Groups without panels are listed too: their members still share the group's room.
        return withVisiblePanels(
          userId,
          groups.map((g) => ({
            groupId: g._id.toHexString(),
            memberCount: g.memberCount,
            converseIds: g.panels.filter((p) => !p.private).map((p) => p.converseId.toHexString()),
            privateConverseIds: g.panels.filter((p) => p.private).map((p) => p.converseId.toHexString()),
          })),
        );
      },
    },
  };
};
