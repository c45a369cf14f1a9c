import type { Permission, Role } from '@im/protocol';
import { accountStore } from './account-state.ts';
import { changeMemberRoles, putGroup } from './groups.ts';
import { permissionsOf, rankedRoles } from './permissions.ts';
import { getState } from './store.ts';
import { api } from '../api/api.ts';

/** groupId → its roles, highest first, `@everyone` last (loaded on first use, kept by `roles:updated`). */
export const useRoles = accountStore<{ byGroup: Record<string, Role[]>; asked: Record<string, boolean> }>(
  'group roles',
  () => ({
    byGroup: {},
    asked: {},
  }),
);

/** Forgets every group's roles so views load them again (after a reconnect: events may have been missed). */
export function forgetRoles(): void {
  useRoles.setState({ byGroup: {}, asked: {} });
}

/** Loads a group's roles once, for what only shows them (chips, colours): a failure leaves them unshown. */
export function ensureRoles(groupId: string): void {
  const { byGroup, asked } = useRoles.getState();
  if (byGroup[groupId] || asked[groupId]) return;
  useRoles.setState((s) => ({ asked: { ...s.asked, [groupId]: true } }));
  void loadRoles(groupId).catch(() => undefined);
}

/** What a role is made of in the Roles tab. */
export interface RoleDraft {
  name: string;
  color?: string;
  permissions: Permission[];
}

/** What may change of a role (of `@everyone`, only its permissions). */
export type RolePatch = Partial<RoleDraft & { position: number }>;

/** Loads a group's roles; it throws, for the view that asked to show why. */
export async function loadRoles(groupId: string): Promise<Role[]> {
  const roles = await api.call('group.roles', { groupId });
  applyRoles(groupId, roles);
  return roles;
}

/** A group's whole list of roles (an answer or `roles:updated`); my permissions there follow it. */
export function applyRoles(groupId: string, roles: Role[]): void {
  useRoles.setState((s) => ({ byGroup: { ...s.byGroup, [groupId]: rankedRoles(roles) } }));
  refreshMyPermissions(groupId);
}

/**
 * Works out again what I may do in a group after my role, my roles or the
 * roles themselves changed (no event carries my permissions). Without the
 * group's roles held, they are loaded first.
 */
export function refreshMyPermissions(groupId: string): void {
  const group = getState().groups[groupId];
  if (!group) return;
  const roles = useRoles.getState().byGroup[groupId];
  if (!roles) {
    if (group.myRole === 'member') ensureRoles(groupId);
    return;
  }
  const myPermissions = permissionsOf(groupId, group.myRole, group.myRoleIds, roles);
  if (myPermissions.join() !== group.myPermissions.join()) putGroup({ ...group, myPermissions });
}

function changeRoles(groupId: string, change: (roles: Role[]) => Role[]): void {
  const held = useRoles.getState().byGroup[groupId];
  if (held) applyRoles(groupId, change(held));
}

export async function createRole(groupId: string, draft: RoleDraft): Promise<Role> {
  const role = await api.call('group.createRole', { groupId, ...draft });
  changeRoles(groupId, (roles) => (roles.some((r) => r.id === role.id) ? roles : [...roles, role]));
  return role;
}

export async function updateRole(groupId: string, roleId: string, patch: RolePatch): Promise<Role> {
  const role = await api.call('group.updateRole', { groupId, roleId, ...patch });
  changeRoles(groupId, (roles) => roles.map((r) => (r.id === role.id ? role : r)));
  return role;
}

/** Moves a role one place up or down: it takes the position of the role it passes, which the server shifts. */
export async function moveRole(groupId: string, roleId: string, direction: 'up' | 'down'): Promise<void> {
  const roles = useRoles.getState().byGroup[groupId] ?? [];
  const index = roles.findIndex((r) => r.id === roleId);
  const other = roles[direction === 'up' ? index - 1 : index + 1];
  if (index < 0 || !other || other.id === groupId) return;
  await api.call('group.updateRole', { groupId, roleId, position: other.position });
  // Other roles' positions moved too: the whole list says where each now is.
  await loadRoles(groupId);
}

export async function deleteRole(groupId: string, roleId: string): Promise<void> {
  await api.call('group.deleteRole', { groupId, roleId });
  changeRoles(groupId, (roles) => roles.filter((r) => r.id !== roleId));
  for (const member of getState().members[groupId]?.items ?? []) {
    if (member.roleIds.includes(roleId)) {
      changeMemberRoles(
        groupId,
        member.user.id,
        member.roleIds.filter((id) => id !== roleId),
      );
    }
  }
}

/** Gives a member a role; it throws, for the member row to show why. */
export async function giveRole(groupId: string, userId: string, roleId: string): Promise<void> {
  const member = await api.call('group.giveRole', { groupId, userId, roleId });
  changeMemberRoles(groupId, userId, member.roleIds);
  if (userId === getState().me?.id) refreshMyPermissions(groupId);
}

export async function takeRole(groupId: string, userId: string, roleId: string): Promise<void> {
  await api.call('group.takeRole', { groupId, userId, roleId });
  const held = getState().members[groupId]?.items.find((m) => m.user.id === userId);
  if (held) {
    changeMemberRoles(
      groupId,
      userId,
      held.roleIds.filter((id) => id !== roleId),
    );
  }
  if (userId === getState().me?.id) {
    const group = getState().groups[groupId];
    if (group) putGroup({ ...group, myRoleIds: group.myRoleIds.filter((id) => id !== roleId) });
    refreshMyPermissions(groupId);
  }
}
