import type { UserGroup } from '@im/protocol';
import { accountStore } from './account-state.ts';
import { api } from '../api/api.ts';

/** groupId → its user groups by handle (loaded on first use, kept by `usergroups:updated`). */
export const useUserGroups = accountStore<{ byGroup: Record<string, UserGroup[]>; asked: Record<string, boolean> }>(
  'user groups',
  () => ({ byGroup: {}, asked: {} }),
);

/** Forgets every group's user groups so views load them again (after a reconnect: events may have been missed). */
export function forgetUserGroups(): void {
  useUserGroups.setState({ byGroup: {}, asked: {} });
}

/** Loads a group's user groups once, for what only offers them (composer, highlights): a failure leaves none. */
export function ensureUserGroups(groupId: string): void {
  const { byGroup, asked } = useUserGroups.getState();
  if (byGroup[groupId] || asked[groupId]) return;
  useUserGroups.setState((s) => ({ asked: { ...s.asked, [groupId]: true } }));
  void loadUserGroups(groupId).catch(() => undefined);
}

export async function loadUserGroups(groupId: string): Promise<UserGroup[]> {
  const list = await api.call('group.userGroups', { groupId });
  applyUserGroups(groupId, list);
  return list;
}

/** A group's whole list (an answer or `usergroups:updated`). */
export function applyUserGroups(groupId: string, userGroups: UserGroup[]): void {
  const sorted = [...userGroups].sort((a, b) => a.handle.localeCompare(b.handle));
  useUserGroups.setState((s) => ({ byGroup: { ...s.byGroup, [groupId]: sorted } }));
}

/** What a user group is made of in the settings. */
export interface UserGroupDraft {
  handle: string;
  name: string;
  memberIds: string[];
}

export async function createUserGroup(groupId: string, draft: UserGroupDraft): Promise<UserGroup> {
  const made = await api.call('group.createUserGroup', { groupId, ...draft });
  applyOne(groupId, made);
  return made;
}

export async function updateUserGroup(
  groupId: string,
  userGroupId: string,
  patch: Partial<UserGroupDraft>,
): Promise<UserGroup> {
  const changed = await api.call('group.updateUserGroup', { groupId, userGroupId, ...patch });
  applyOne(groupId, changed);
  return changed;
}

export async function deleteUserGroup(groupId: string, userGroupId: string): Promise<void> {
  await api.call('group.removeUserGroup', { groupId, userGroupId });
  const list = useUserGroups.getState().byGroup[groupId] ?? [];
  applyUserGroups(
    groupId,
    list.filter((u) => u.id !== userGroupId),
  );
}

/** An answer, before its event arrives. */
function applyOne(groupId: string, userGroup: UserGroup): void {
  const list = useUserGroups.getState().byGroup[groupId] ?? [];
  applyUserGroups(groupId, [...list.filter((u) => u.id !== userGroup.id), userGroup]);
}
