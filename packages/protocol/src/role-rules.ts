/**
 * The rules of roles, shared by the group service (which enforces them) and
 * the web app (which offers only what they allow): one statement, so the two
 * cannot drift apart.
 */
import { PERMISSIONS, type GroupRole, type Permission } from './index.ts';

/** What a rule needs of a custom role. */
export interface RoleRank {
  permissions: readonly Permission[];
  position: number;
}

/** Someone's place in a group: owner, admin or member, and their custom roles. */
export interface RoleHolder {
  role: GroupRole;
  roleIds?: readonly string[];
}

/** A group's custom roles by id (undefined: no such role, deleted meanwhile). */
export type RoleLookup = (roleId: string) => RoleRank | undefined;

const isManager = (role: GroupRole) => role === 'owner' || role === 'admin';

/** Every permission for owner and admins; else `@everyone`'s and those of the member's roles, in catalog order. */
export function permissionsOf(holder: RoleHolder, everyone: readonly Permission[], roleOf: RoleLookup): Permission[] {
  if (isManager(holder.role)) return [...PERMISSIONS];
  const held = new Set<Permission>(everyone);
  for (const id of holder.roleIds ?? []) for (const p of roleOf(id)?.permissions ?? []) held.add(p);
  return PERMISSIONS.filter((p) => held.has(p));
}

/** How high someone ranks: their highest role's position (owner and admins above every role; `@everyone` is 0). */
export function rankOf(holder: RoleHolder, roleOf: RoleLookup): number {
  if (isManager(holder.role)) return Number.POSITIVE_INFINITY;
  return Math.max(0, ...(holder.roleIds ?? []).map((id) => roleOf(id)?.position ?? 0));
}

/**
 * Why someone holding a moderation permission may not act on `target` (null:
 * not a member), or null when they may: the owner acts on anyone but the
 * owner; an admin on plain members and outsiders; a plain member on plain
 * members whose highest role ranks below their own, and outsiders.
 */
export function moderationRefusal(
  actor: RoleHolder,
  target: RoleHolder | null,
  roleOf: RoleLookup,
): 'owner' | 'admin' | 'rank' | null {
  if (!target) return null;
  if (target.role === 'owner') return 'owner';
  if (actor.role === 'owner') return null;
  if (target.role === 'admin') return 'admin';
  if (actor.role === 'admin') return null;
  return rankOf(actor, roleOf) > rankOf(target, roleOf) ? null : 'rank';
}
