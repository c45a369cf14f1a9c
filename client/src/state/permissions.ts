import {
  moderationRefusal,
  permissionsOf as sharedPermissionsOf,
  rankOf as sharedRankOf,
  type Group,
  type GroupRole,
  type Member,
  type Permission,
  type Role,
  type RoleLookup,
} from '@im/protocol';
import { t } from '../i18n/i18n.ts';

/** What each permission lets its holders do, one line each, as the Roles tab shows it. */
export const permissionText = (permission: Permission): string => t(`permissions.${permission}.text`);

/** A permission's name as a person reads it ("manageRoles" → "Manage roles"). */
export const permissionLabel = (permission: Permission): string => t(`permissions.${permission}`);

/** Whether I may do `permission` in `group`: owner and admins always may. */
export function hasPermission(group: Group, permission: Permission): boolean {
  return group.myRole !== 'member' || group.myPermissions.includes(permission);
}

/** The built-in role every member holds: its id is the group's. */
export const isEveryone = (role: Role, groupId: string): boolean => role.id === groupId;

/** A group's roles by id, as the shared rules (@im/protocol) ask for them. */
const lookupIn =
  (roles: Role[]): RoleLookup =>
  (id) =>
    roles.find((r) => r.id === id);

/** What a member may do: every permission for owner and admins, else `@everyone`'s and their roles'. */
export function permissionsOf(groupId: string, role: GroupRole, roleIds: string[], roles: Role[]): Permission[] {
  const everyone = roles.find((r) => r.id === groupId)?.permissions ?? [];
  return sharedPermissionsOf({ role, roleIds }, everyone, lookupIn(roles));
}

/** Highest first, `@everyone` last. */
export function rankedRoles(roles: Role[]): Role[] {
  return [...roles].sort((a, b) => b.position - a.position);
}

/** A member's roles, highest first (`@everyone` left out). */
export function rolesOf(roleIds: string[], roles: Role[]): Role[] {
  return rankedRoles(roles.filter((r) => roleIds.includes(r.id)));
}

/** The colour a member's name takes: that of their highest role that has one. */
export function nameColor(roleIds: string[], roles: Role[]): string | undefined {
  return rolesOf(roleIds, roles).find((r) => r.color)?.color;
}

/** How high someone ranks: their highest role's position (owner and admins above every role). */
export function rankOf(role: GroupRole, roleIds: string[], roles: Role[]): number {
  return sharedRankOf({ role, roleIds }, lookupIn(roles));
}

/** What kicking, banning and muting each need. */
export type ModerationPermission = 'kickMembers' | 'banMembers' | 'muteMembers';

/**
 * Whether I may remove, ban or mute `target`, as the server decides: never
 * myself or the owner; the owner anyone else; an admin plain members; a plain
 * member holding the permission plain members whose highest role ranks below
 * theirs.
 */
export function mayModerate(
  group: Group,
  target: Pick<Member, 'user' | 'role' | 'roleIds'>,
  meId: string | undefined,
  permission: ModerationPermission,
  roles: Role[],
): boolean {
  if (target.user.id === meId) return false;
  const me = { role: group.myRole, roleIds: group.myRoleIds };
  return hasPermission(group, permission) && moderationRefusal(me, target, lookupIn(roles)) === null;
}

/**
 * Whether I may edit, move, delete, give or take `role`, as the server
 * decides: with `manageRoles`, owner and admins any role, a plain member only
 * roles ranked below their own highest.
 */
export function mayManageRole(group: Group, role: Role, roles: Role[]): boolean {
  if (!hasPermission(group, 'manageRoles')) return false;
  return group.myRole !== 'member' || role.position < rankOf(group.myRole, group.myRoleIds, roles);
}
