import type { Member, Permission, Role } from '@im/protocol';
import {
  announce,
  call,
  callerId,
  EVENTS,
  type Params,
  type Ctx,
  notFound,
  forbidden,
  invalid,
  conflict,
  defineActions,
} from '@im/sdk';
import { Types } from 'mongoose';
import { lacking, loadForMember, standingOf } from './access.ts';
import type { GroupDeps } from './deps.ts';
import { auditMemberAction } from './member-audit.ts';
import type { GroupDoc, MemberDoc, RoleDoc } from './models.ts';
import { announceMemberAudience } from './panel-audience.ts';
import { groupParams } from './params.ts';
import { rankOf, rulesOf, type Standing } from './permissions.ts';
import { toMemberView } from './member-view.ts';
import { rolesOf, toRole } from './views.ts';

/** Most custom roles a group may have: they travel inside the group document. */
export const MAX_ROLES = 100;

const roleNotFound = () => notFound('role');

/**
 * Custom roles: made, edited, reordered and deleted by holders of
 * manageRoles, given to and taken from members. Owner and admins act on any
 * role; anyone else only on roles ranked below their own highest, and only
 * with permissions they hold themselves (so nobody can raise themselves).
 */
export const roleActions = ({ models, store, membership, audit }: GroupDeps) => {
  /** The caller, holding manageRoles, with the group and what they may hand out. */
  const loadManager = async (ctx: Ctx<{ groupId: string }>) => {
    const actorId = callerId(ctx);
    const loaded = await loadForMember(models, ctx.params.groupId, actorId, 'manageRoles');
    const rules = rulesOf(loaded.group);
    const actor = standingOf(loaded.me);
    return { actorId, ...loaded, rank: rankOf(actor, rules) };
  };

  const refuseAbove = (role: Pick<RoleDoc, 'position'>, rank: number) => {
    if (role.position >= rank) throw forbidden('You can only manage roles ranked below your own highest role');
  };
  const refuseUnheld = (wanted: readonly Permission[], held: readonly Permission[]) => {
    const missing = wanted.find((p) => !held.includes(p));
    if (missing) throw lacking(missing);
  };

  /**
   * Writes a group's whole role list if nobody changed it since `before`
   * was read (roles are few and live in the group document): a concurrent
   * change is a 409 to retry, never a lost update.
   */
  const saveRoles = async (before: GroupDoc, roles: RoleDoc[], extra: Record<string, unknown> = {}) => {
    const renumbered = [...roles].sort((a, b) => a.position - b.position).map((r, i) => ({ ...r, position: i + 1 }));
    const saved = await store.updateGroup(
      { _id: before._id, rolesVersion: before.rolesVersion ?? { $exists: false } },
      { $set: { roles: renumbered, ...extra }, $inc: { rolesVersion: 1 } },
      { new: true },
    );
    if (!saved) throw conflict('The roles changed meanwhile: try again');
    return saved;
  };

  const announceRoles = (ctx: Ctx<object>, group: GroupDoc) =>
    announce(ctx, EVENTS.rolesUpdated, { groupId: group._id.toHexString(), roles: rolesOf(group) });

  /** Gives or takes one role from one member: the write, the cache, the events. */
  const changeMemberRole = async (ctx: Ctx<Params<typeof groupParams.giveRole>>, give: boolean) => {
    const { actorId, group, rank } = await loadManager(ctx);
    const role = (group.roles ?? []).find((r) => r._id.toHexString() === ctx.params.roleId);
    if (!role) throw roleNotFound();
    refuseAbove(role, rank);
    const roleId = new Types.ObjectId(ctx.params.roleId);
    const before = await store.updateMember(
      { groupId: group._id, userId: ctx.params.userId },
      give ? { $addToSet: { roleIds: roleId } } : { $pull: { roleIds: roleId } },
    );
    if (!before) throw notFound('member');
    const had = (before.roleIds ?? []).some((id) => id.equals(roleId));
    const roleIds = give
      ? [...(before.roleIds ?? []).filter((id) => !id.equals(roleId)), roleId]
      : (before.roleIds ?? []).filter((id) => !id.equals(roleId));
    const after: MemberDoc = { ...before, roleIds };
    if (had !== give) {
      announce(ctx, EVENTS.memberUpdated, {
        groupId: ctx.params.groupId,
        userId: ctx.params.userId,
        role: after.role,
        roleIds: roleIds.map((id) => id.toHexString()),
      });
      announceMemberAudience(ctx, group, ctx.params.userId, standingOf(before), standingOf(after));
      await auditMemberAction(audit, ctx, {
        actorId,
        action: give ? 'member.roleGive' : 'member.roleTake',
        userId: ctx.params.userId,
        groupId: ctx.params.groupId,
        details: { role: role.name },
      });
    }
    return after;
  };

  return defineActions('group', {
    /** Every role of the group, `@everyone` first (any member). */
    roles: {
      params: groupParams.roles,
      async handler(ctx: Ctx<Params<typeof groupParams.roles>>): Promise<Role[]> {
        const { group } = await loadForMember(models, ctx.params.groupId, callerId(ctx));
        return rolesOf(group);
      },
    },

    /** A new role, placed lowest (position 1: every other role moves up one). */
    createRole: {
      params: groupParams.createRole,
      rateLimit: 'role-create',
      async handler(ctx: Ctx<Params<typeof groupParams.createRole>>): Promise<Role> {
        const { actorId, group, permissions: held } = await loadManager(ctx);
        refuseUnheld(ctx.params.permissions, held);
        const existing = group.roles ?? [];
        if (existing.length >= MAX_ROLES) throw conflict(`A group has at most ${MAX_ROLES} roles`);
        const role: RoleDoc = {
          _id: new Types.ObjectId(),
          name: ctx.params.name,
          ...(ctx.params.color ? { color: ctx.params.color.toLowerCase() } : {}),
          permissions: ctx.params.permissions,
          position: 0,
        };
        const saved = await saveRoles(group, [role, ...existing]);
        announceRoles(ctx, saved);
        await audit.record(actorId, {
          action: 'role.create',
          target: { type: 'role', id: role._id.toHexString() },
          groupId: ctx.params.groupId,
          details: { name: role.name, permissions: role.permissions },
        });
        return toRole(saved.roles!.find((r) => r._id.equals(role._id))!);
      },
    },

    /**
     * Renames, recolours, changes permissions or moves a role (`position`:
     * where it lands, the others close up). `@everyone` (the group's id) has
     * only permissions to change.
     */
    updateRole: {
      params: groupParams.updateRole,
      async handler(ctx: Ctx<Params<typeof groupParams.updateRole>>): Promise<Role> {
        const { actorId, group, permissions: held, rank } = await loadManager(ctx);
        const { name, color, permissions, position } = ctx.params;
        if ([name, color, permissions, position].every((v) => v === undefined))
          throw invalid('Nothing to change: give name, color, permissions or position');
        // A permission the caller lacks may be neither given nor taken by them.
        const touched = (from: readonly Permission[]) =>
          permissions
            ? [...permissions.filter((p) => !from.includes(p)), ...from.filter((p) => !permissions.includes(p))]
            : [];

        if (ctx.params.roleId === ctx.params.groupId) {
          if (name !== undefined || color !== undefined || position !== undefined)
            throw invalid('@everyone has only permissions to change');
          const before = rolesOf(group)[0]!;
          refuseUnheld(touched(before.permissions), held);
          const saved = await saveRoles(group, group.roles ?? [], { everyonePermissions: permissions });
          announceRoles(ctx, saved);
          await audit.record(actorId, {
            action: 'role.update',
            target: { type: 'role', id: ctx.params.roleId },
            groupId: ctx.params.groupId,
            details: { name: before.name, permissions },
          });
          return rolesOf(saved)[0]!;
        }

        const roles = group.roles ?? [];
        const role = roles.find((r) => r._id.toHexString() === ctx.params.roleId);
        if (!role) throw roleNotFound();
        refuseAbove(role, rank);
        refuseUnheld(touched(role.permissions), held);
        // Moving lands it just below `position` or at it: never at or above the mover's own rank.
        if (position !== undefined && position >= rank)
          throw forbidden('You can only place roles below your own highest role');
        const target = Math.min(position ?? role.position, roles.length);
        const updated: RoleDoc = {
          ...role,
          ...(name !== undefined ? { name } : {}),
          ...(permissions !== undefined ? { permissions } : {}),
        };
        if (color === '') delete updated.color;
        else if (color !== undefined) updated.color = color.toLowerCase();
        // The moved role takes its new place; the others keep their order around it.
        const others = roles.filter((r) => r !== role).sort((a, b) => a.position - b.position);
        others.splice(target - 1, 0, updated);
        const saved = await saveRoles(
          group,
          others.map((r, i) => ({ ...r, position: i + 1 })),
        );
        announceRoles(ctx, saved);
        await audit.record(actorId, {
          action: 'role.update',
          target: { type: 'role', id: ctx.params.roleId },
          groupId: ctx.params.groupId,
          details: { name: updated.name, ...(permissions ? { permissions } : {}), ...(position ? { position } : {}) },
        });
        return toRole(saved.roles!.find((r) => r._id.equals(role._id))!);
      },
    },

    /** Deletes a role: its holders lose it, and private panels stop allowing it. */
    deleteRole: {
      params: groupParams.deleteRole,
      async handler(ctx: Ctx<Params<typeof groupParams.deleteRole>>): Promise<void> {
        const { actorId, group, rank } = await loadManager(ctx);
        if (ctx.params.roleId === ctx.params.groupId) throw invalid('@everyone cannot be deleted');
        const role = (group.roles ?? []).find((r) => r._id.toHexString() === ctx.params.roleId);
        if (!role) throw roleNotFound();
        refuseAbove(role, rank);
        const saved = await saveRoles(
          group,
          (group.roles ?? []).filter((r) => r !== role),
        );
        // Panel by panel (few allow a given role): the positional update leaves other panel changes alone.
        for (const panel of group.panels.filter((p) => p.allowRoleIds?.some((id) => id.equals(role._id))))
          await store.updateGroup(
            { _id: group._id, 'panels._id': panel._id },
            { $pull: { 'panels.$.allowRoleIds': role._id } },
          );
        const holders = await store.pullRole(group._id, role._id);
        for (const holder of holders) {
          const userId = holder.userId.toHexString();
          const before: Standing = standingOf(holder);
          const after: Standing = {
            ...before,
            roleIds: before.roleIds?.filter((id) => id !== ctx.params.roleId) ?? [],
          };
          announce(ctx, EVENTS.memberUpdated, {
            groupId: ctx.params.groupId,
            userId,
            role: holder.role,
            roleIds: [...(after.roleIds ?? [])],
          });
          // Panels as they were (the role still allowed) against the member without the role.
          announceMemberAudience(ctx, group, userId, before, after);
        }
        announceRoles(ctx, saved);
        await audit.record(actorId, {
          action: 'role.delete',
          target: { type: 'role', id: ctx.params.roleId },
          groupId: ctx.params.groupId,
          details: { name: role.name, holders: holders.length },
        });
      },
    },

    giveRole: {
      params: groupParams.giveRole,
      async handler(ctx: Ctx<Params<typeof groupParams.giveRole>>): Promise<Member> {
        const member = await changeMemberRole(ctx, true);
        const users = await call(ctx, 'user.getMany', { ids: [ctx.params.userId] });
        const user = users[ctx.params.userId];
        if (!user) throw notFound('member');
        return toMemberView(member, user);
      },
    },

    takeRole: {
      params: groupParams.takeRole,
      async handler(ctx: Ctx<Params<typeof groupParams.takeRole>>): Promise<void> {
        await changeMemberRole(ctx, false);
      },
    },

    /** For other services' permission checks: a member's role, custom roles and permissions, or null. Cached. */
    memberAccess: {
      visibility: 'public' as const,
      params: groupParams.memberAccess,
      async handler(ctx: Ctx<Params<typeof groupParams.memberAccess>>) {
        return membership.access(ctx.params.groupId, ctx.params.userId);
      },
    },
  });
};
