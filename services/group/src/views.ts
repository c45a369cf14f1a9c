import type { DirectoryGroup, Group, GroupInfo, Invite, Panel, Role } from '@im/protocol';
import type { GroupDoc, InviteDoc, MemberDoc, PanelDoc, RoleDoc } from './models.ts';
import { DEFAULT_EVERYONE, panelAudience, EVERYONE, maySee, permissionsOf, rulesOf } from './permissions.ts';

export const toPanel = (p: PanelDoc): Panel => ({
  id: p._id.toHexString(),
  name: p.name,
  type: p.type,
  converseId: p.converseId.toHexString(),
  postingRole: p.postingRole ?? 'member',
  webPublic: p.webPublic === true,
  ...(p.topic ? { topic: p.topic } : {}),
  private: p.private === true,
  ...(p.private
    ? {
        allowRoleIds: (p.allowRoleIds ?? []).map((id) => id.toHexString()),
        allowUserIds: (p.allowUserIds ?? []).map((id) => id.toHexString()),
      }
    : {}),
});

/** The group as events carry it: everything but the caller's own standing, and only the panels everyone sees. */
export const toGroupInfo = (g: GroupDoc, panels: PanelDoc[] = g.panels.filter((p) => !p.private)): GroupInfo => ({
  id: g._id.toHexString(),
  name: g.name,
  ownerId: g.ownerId.toHexString(),
  panels: panels.map(toPanel),
  memberCount: g.memberCount,
  visibility: g.visibility ?? 'private',
  ...(g.description ? { description: g.description } : {}),
  language: g.language ?? 'en',
  ...(g.icon ? { icon: g.icon.toHexString() } : {}),
});

export const toRole = (r: RoleDoc): Role => ({
  id: r._id.toHexString(),
  name: r.name,
  ...(r.color ? { color: r.color } : {}),
  permissions: r.permissions,
  position: r.position,
});

/** Every role of a group, `@everyone` (position 0, the group's id) first, then by position. */
export const rolesOf = (g: Pick<GroupDoc, '_id' | 'roles' | 'everyonePermissions'>): Role[] => [
  {
    id: g._id.toHexString(),
    name: EVERYONE,
    permissions: [...(g.everyonePermissions ?? DEFAULT_EVERYONE)],
    position: 0,
  },
  ...[...(g.roles ?? [])].sort((a, b) => a.position - b.position).map(toRole),
];

export const toDirectoryGroup = (g: GroupDoc): DirectoryGroup => ({
  id: g._id.toHexString(),
  name: g.name,
  memberCount: g.memberCount,
  ...(g.description ? { description: g.description } : {}),
  language: g.language ?? 'en',
});

/** A mute still running, as the API shows it (a past one is no mute). */
export const activeMute = (m: Pick<MemberDoc, 'mutedUntil'> | undefined): string | undefined =>
  m?.mutedUntil && m.mutedUntil.getTime() > Date.now() ? m.mutedUntil.toISOString() : undefined;

/**
 * The group as the caller sees it: the panels they may see, their role,
 * roles and permissions, and their mute when one runs.
 */
export const toGroup = (g: GroupDoc, me: Pick<MemberDoc, 'userId' | 'role' | 'mutedUntil' | 'roleIds'>): Group => {
  const mutedUntil = activeMute(me);
  const roleIds = (me.roleIds ?? []).map((id) => id.toHexString());
  const standing = { role: me.role, roleIds };
  const userId = me.userId.toHexString();
  const rules = rulesOf(g);
  const panels = g.panels.filter((p) => maySee(standing, userId, rules.privatePanels[p.converseId.toHexString()]));
  return {
    ...toGroupInfo(g, panels),
    myRole: me.role,
    ...(mutedUntil ? { myMutedUntil: mutedUntil } : {}),
    myRoleIds: roleIds,
    myPermissions: permissionsOf(standing, rules),
  };
};

export const toInvite = (i: InviteDoc): Invite => ({
  code: i.code,
  createdBy: i.createdBy.toHexString(),
  // Invites made before createdAt was stored: their id holds the time.
  createdAt: (i.createdAt ?? i._id.getTimestamp()).toISOString(),
  expiresAt: i.expiresAt.toISOString(),
  maxUses: i.maxUses,
  uses: i.uses,
});

export const converseIdsOf = (g: Pick<GroupDoc, 'panels'>): string[] => g.panels.map((p) => p.converseId.toHexString());

/** The converses of the panels a new member (no custom roles yet) sees. */
export const converseIdsSeenBy = (
  g: Pick<GroupDoc, 'panels'>,
  member: Pick<MemberDoc, 'userId' | 'role' | 'roleIds'>,
) => {
  const standing = { role: member.role, roleIds: (member.roleIds ?? []).map((id) => id.toHexString()) };
  const userId = member.userId.toHexString();
  return g.panels.filter((p) => maySee(standing, userId, panelAudience(p))).map((p) => p.converseId.toHexString());
};
