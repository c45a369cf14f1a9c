import type {
  DmConverse,
  Group,
  GroupInfo,
  GroupLanguage,
  GroupRole,
  GroupVisibility,
  Invite,
  Member,
  Panel,
} from '@im/protocol';
import { describeError } from '../api/errors.ts';
import { navigate } from './navigation.ts';
import { loadPresence } from './presence.ts';
import { getState, notify, setState } from './store.ts';
import { ensureUsers, rememberUsers } from './users.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

export function putGroup(group: Group): void {
  setState((s) => ({
    groups: { ...s.groups, [group.id]: group },
    groupOrder: s.groupOrder.includes(group.id) ? s.groupOrder : [...s.groupOrder, group.id],
  }));
}

export function removeGroup(groupId: string): void {
  setState((s) => {
    const groups = { ...s.groups };
    delete groups[groupId];
    const members = { ...s.members };
    delete members[groupId];
    return { groups, members, groupOrder: s.groupOrder.filter((id) => id !== groupId) };
  });
  const route = getState().route;
  if (route.name === 'group' && route.groupId === groupId) navigate({ name: 'home' }, { replace: true });
}

/**
 * Applies a group change from an event, which carries nothing of mine (my
 * role, mute, roles and permissions are kept) and only the panels everyone
 * sees: the private panels I was let into stay where they were.
 */
export function updateGroup(group: GroupInfo): void {
  const held = getState().groups[group.id];
  if (!held) return;
  const mine = held.myMutedUntil === undefined ? {} : { myMutedUntil: held.myMutedUntil };
  putGroup({
    ...group,
    panels: withHeldPrivatePanels(held.panels, group.panels),
    myRole: held.myRole,
    myRoleIds: held.myRoleIds,
    myPermissions: held.myPermissions,
    ...mine,
  });
}

/** `shared` (the panels everyone sees) with the private panels of `held` it lacks, each after the panel it followed. */
export function withHeldPrivatePanels(held: Panel[], shared: Panel[]): Panel[] {
  const panels = [...shared];
  held.forEach((panel, index) => {
    if (!panel.private || panels.some((p) => p.id === panel.id)) return;
    const before = held
      .slice(0, index)
      .reverse()
      .find((h) => panels.some((p) => p.id === h.id));
    panels.splice(before ? panels.findIndex((p) => p.id === before.id) + 1 : 0, 0, panel);
  });
  return panels;
}

export function updatePanels(groupId: string, update: (panels: Panel[]) => Panel[]): void {
  const held = getState().groups[groupId];
  if (held) putGroup({ ...held, panels: update(held.panels) });
}

export async function loadGroups(): Promise<void> {
  const groups = await api.call('group.list');
  setState({
    groups: Object.fromEntries(groups.map((g) => [g.id, g])),
    groupOrder: groups.map((g) => g.id),
    groupsLoaded: true,
  });
}

export async function loadDms(): Promise<void> {
  const dms = await api.call('chat.listDms');
  setState({ dms: Object.fromEntries(dms.map((d) => [d.id, d])), dmOrder: dms.map((d) => d.id) });
  ensureUsers(dms.flatMap((d) => d.memberIds));
}

export function putDm(dm: DmConverse): void {
  setState((s) => ({
    dms: { ...s.dms, [dm.id]: dm },
    dmOrder: [dm.id, ...s.dmOrder.filter((id) => id !== dm.id)],
  }));
  ensureUsers(dm.memberIds);
}

/** Runs a user action; failures become a notice and `null`. */
async function attempt<T>(what: string, action: () => Promise<T>): Promise<T | null> {
  try {
    return await action();
  } catch (err) {
    notify(t('notices.failedWith', { what, reason: describeError(err) }));
    return null;
  }
}

export async function createGroup(name: string): Promise<Group | null> {
  const group = await attempt(t('notices.createGroup'), () => api.call('group.create', { name }));
  if (group) {
    putGroup(group);
    navigate({ name: 'group', groupId: group.id, converseId: group.panels[0]?.converseId });
  }
  return group;
}

/** Joins by invite code; errors are returned for the dialog to show. */
export async function acceptInvite(code: string): Promise<Group> {
  const group = await api.call('group.acceptInvite', { code });
  putGroup(group);
  navigate({ name: 'group', groupId: group.id, converseId: group.panels[0]?.converseId });
  return group;
}

/** Options of a new invite; absent ones take the server's defaults (unlimited uses, 7 days). */
export interface InviteOptions {
  maxUses?: number;
  expiresInSec?: number;
}

export async function createInvite(groupId: string, opts: InviteOptions = {}): Promise<Invite | null> {
  return attempt(t('notices.createInvite'), () => api.call('group.createInvite', { groupId, ...opts }));
}

export async function renameGroup(groupId: string, name: string): Promise<void> {
  const group = await attempt(t('notices.renameGroup'), () => api.call('group.update', { groupId, name }));
  if (group) putGroup(group);
}

/** The longest description a group may have (the server refuses more). */
export const MAX_GROUP_DESCRIPTION = 500;

/** What owners and admins change of a group besides its name; an empty description clears it. */
export interface GroupProfilePatch {
  visibility?: GroupVisibility;
  description?: string;
  /** Owner and admins only: the language of the group's public pages and feeds. */
  language?: GroupLanguage;
}

/**
 * Makes a group public or private, or changes its description. It throws: the
 * settings tab shows the failure next to its Save button. Making a group
 * private also takes every panel off the web (the answer carries them).
 */
export async function updateGroupProfile(groupId: string, patch: GroupProfilePatch): Promise<Group> {
  const group = await api.call('group.update', { groupId, ...patch });
  putGroup(group);
  return group;
}

export async function deleteGroup(groupId: string): Promise<void> {
  const done = await attempt(t('notices.deleteGroup'), () => api.call('group.remove', { groupId }));
  if (done !== null) removeGroup(groupId);
}

export async function leaveGroup(groupId: string): Promise<void> {
  const me = getState().me;
  if (!me) return;
  const done = await attempt(t('notices.leaveGroup'), () => api.call('group.removeMember', { groupId, userId: me.id }));
  if (done !== null) removeGroup(groupId);
}

export async function removeMember(groupId: string, userId: string): Promise<void> {
  const done = await attempt(t('notices.removeMember'), () => api.call('group.removeMember', { groupId, userId }));
  if (done !== null) dropMember(groupId, userId);
}

export async function setMemberRole(groupId: string, userId: string, role: 'admin' | 'member'): Promise<void> {
  const member = await attempt(t('notices.changeRole'), () => api.call('group.setRole', { groupId, userId, role }));
  if (member) changeMemberRole(groupId, userId, member.role);
}

/** The longest topic a panel may have (the server refuses more). */
export const MAX_PANEL_TOPIC = 250;

/** What a new panel may start with besides its name and type: a topic, and privacy with its allow lists. */
export type NewPanelOptions = Partial<Pick<Panel, 'topic' | 'private' | 'allowRoleIds' | 'allowUserIds'>>;

export async function createPanel(
  groupId: string,
  name: string,
  type: Panel['type'] = 'text',
  options: NewPanelOptions = {},
): Promise<Panel | null> {
  const panel = await attempt(t('notices.createPanel'), () =>
    api.call('group.createPanel', { groupId, name, type, ...options }),
  );
  if (panel) {
    updatePanels(groupId, (panels) => (panels.some((p) => p.id === panel.id) ? panels : [...panels, panel]));
    navigate({ name: 'group', groupId, converseId: panel.converseId });
  }
  return panel;
}

/** What the panel settings change of a panel (an empty topic clears it). */
export type PanelPatch = Partial<
  Pick<Panel, 'name' | 'postingRole' | 'topic' | 'private' | 'allowRoleIds' | 'allowUserIds'>
>;

/** Changes a panel's name, topic, who may post in it or who sees it; answers whether it worked. */
export async function updatePanel(groupId: string, panelId: string, patch: PanelPatch): Promise<boolean> {
  const panel = await attempt(t('notices.changePanel'), () =>
    api.call('group.updatePanel', { groupId, panelId, ...patch }),
  );
  if (panel) updatePanels(groupId, (panels) => panels.map((p) => (p.id === panel.id ? panel : p)));
  return panel !== null;
}

/**
 * Makes a panel readable on the web (its page and feeds) or not. It throws: a
 * private group's panels cannot be web-public (409), and the panel settings
 * show why.
 */
export async function setPanelWebPublic(groupId: string, panelId: string, webPublic: boolean): Promise<Panel> {
  const panel = await api.call('group.updatePanel', { groupId, panelId, webPublic });
  updatePanels(groupId, (panels) => panels.map((p) => (p.id === panel.id ? panel : p)));
  return panel;
}

export async function deletePanel(groupId: string, panelId: string): Promise<void> {
  const done = await attempt(t('notices.deletePanel'), () => api.call('group.deletePanel', { groupId, panelId }));
  if (done !== null) updatePanels(groupId, (panels) => panels.filter((p) => p.id !== panelId));
}

/** Loads the next page of a group's members (the first when none is held). */
export async function loadMembers(groupId: string): Promise<void> {
  const held = getState().members[groupId];
  if (held?.loading || (held && held.nextCursor === null)) return;
  setState((s) => ({
    members: {
      ...s.members,
      [groupId]: { items: held?.items ?? [], nextCursor: held?.nextCursor ?? null, loading: true },
    },
  }));
  const cursor = held?.nextCursor ? { cursor: held.nextCursor } : {};
  try {
    const page = await api.call('group.members', { groupId, limit: 100, ...cursor });
    rememberUsers(page.items.map((m) => m.user));
    setState((s) => {
      const items = [...(s.members[groupId]?.items ?? [])];
      const seen = new Set(items.map((m) => m.user.id));
      for (const m of page.items) if (!seen.has(m.user.id)) items.push(m);
      return { members: { ...s.members, [groupId]: { items, nextCursor: page.nextCursor, loading: false } } };
    });
    void loadPresence(page.items.map((m) => m.user.id));
  } catch (err) {
    setState((s) => ({
      members: {
        ...s.members,
        [groupId]: { items: held?.items ?? [], nextCursor: held?.nextCursor ?? null, loading: false },
      },
    }));
    notify(t('notices.loadMembers', { reason: describeError(err) }));
  }
}

/** Forgets the loaded member list so the next view reloads it (after a reconnect). */
export function invalidateMembers(): void {
  setState({ members: {} });
}

/**
 * Someone joined a group: into its member list and its count. My own join
 * (an invite, Explore) on this device already put the group in the store
 * from the join's answer, which counts me; a join from another device loads
 * my groups.
 */
export function applyMemberJoined(groupId: string, userId: string, role: GroupRole): void {
  addMember(groupId, userId, role);
  if (userId !== getState().me?.id) return updateMemberCount(groupId, +1);
  if (!getState().groups[groupId]) void loadGroups();
}

export function updateMemberCount(groupId: string, delta: number): void {
  setState((s) => {
    const group = s.groups[groupId];
    if (!group) return {};
    return { groups: { ...s.groups, [groupId]: { ...group, memberCount: Math.max(0, group.memberCount + delta) } } };
  });
}

export function addMember(groupId: string, userId: string, role: GroupRole): void {
  const list = getState().members[groupId];
  const user = getState().users[userId];
  if (!list || list.items.some((m) => m.user.id === userId)) return;
  if (!user) {
    return void api
      .call('user.get', { userId })
      .then((u) => {
        rememberUsers([u]);
        addMemberWith(groupId, { user: u, role, roleIds: [], joinedAt: new Date().toISOString() });
      })
      .catch(() => undefined);
  }
  addMemberWith(groupId, { user, role, roleIds: [], joinedAt: new Date().toISOString() });
}

function addMemberWith(groupId: string, member: Member): void {
  setState((s) => {
    const list = s.members[groupId];
    if (!list || list.items.some((m) => m.user.id === member.user.id)) return {};
    return { members: { ...s.members, [groupId]: { ...list, items: [...list.items, member] } } };
  });
}

export function dropMember(groupId: string, userId: string): void {
  setState((s) => {
    const list = s.members[groupId];
    if (!list) return {};
    return { members: { ...s.members, [groupId]: { ...list, items: list.items.filter((m) => m.user.id !== userId) } } };
  });
}

export function changeMemberRole(groupId: string, userId: string, role: GroupRole): void {
  updateMember(groupId, userId, { role });
}

/** A `member:updated` event: the role, the custom roles, and the mute (absent: not muted). */
export function applyMemberUpdate(
  groupId: string,
  userId: string,
  role: GroupRole,
  mutedUntil?: string,
  roleIds?: string[],
): void {
  updateMember(groupId, userId, { role, mute: { until: mutedUntil }, ...(roleIds ? { roleIds } : {}) });
}

/** Records a member's custom roles after I gave or took one, before its event arrives. */
export function changeMemberRoles(groupId: string, userId: string, roleIds: string[]): void {
  updateMember(groupId, userId, { roleIds });
}

/** Records a mute I just set or lifted (until absent), before its event arrives. */
export function changeMemberMute(groupId: string, userId: string, until?: string): void {
  updateMember(groupId, userId, { mute: { until } });
}

/** What changed of a membership; `mute` present with no `until` means the mute ended. */
interface MemberChange {
  role?: GroupRole;
  roleIds?: string[];
  mute?: { until?: string };
}

function changedMember(member: Member, change: MemberChange): Member {
  const { mutedUntil, ...rest } = member;
  const until = change.mute ? change.mute.until : mutedUntil;
  return {
    ...rest,
    role: change.role ?? member.role,
    roleIds: change.roleIds ?? member.roleIds,
    ...(until ? { mutedUntil: until } : {}),
  };
}

function changedGroup(group: Group, change: MemberChange): Group {
  const { myMutedUntil, ...rest } = group;
  const until = change.mute ? change.mute.until : myMutedUntil;
  return {
    ...rest,
    myRole: change.role ?? group.myRole,
    myRoleIds: change.roleIds ?? group.myRoleIds,
    ...(until ? { myMutedUntil: until } : {}),
  };
}

/** Changes one member in the loaded list, and my own role, roles and mute in the group when it is me. */
function updateMember(groupId: string, userId: string, change: MemberChange): void {
  setState((s) => {
    const list = s.members[groupId];
    const group = s.groups[groupId];
    const groups = group && userId === s.me?.id ? { ...s.groups, [groupId]: changedGroup(group, change) } : s.groups;
    if (!list) return { groups };
    const items = list.items.map((m) => (m.user.id === userId ? changedMember(m, change) : m));
    return { groups, members: { ...s.members, [groupId]: { ...list, items } } };
  });
}

/** Opens (or creates) the DM with a user and shows it. */
export async function startDm(userId: string): Promise<void> {
  const dm = await attempt(t('notices.openDm'), () => api.call('chat.openDm', { userId }));
  if (dm) {
    putDm(dm);
    navigate({ name: 'dm', converseId: dm.id });
  }
}
