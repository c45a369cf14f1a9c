import type { DirectoryGroup, Group, Invite, Panel } from '@im/protocol';
import type { GroupDoc, InviteDoc, MemberDoc, PanelDoc } from './models.ts';

export const toPanel = (p: PanelDoc): Panel => ({
  id: p._id.toHexString(),
  name: p.name,
  type: p.type,
  converseId: p.converseId.toHexString(),
  postingRole: p.postingRole ?? 'member',
  webPublic: p.webPublic === true,
});

/** The group as events carry it: everything but the caller's own standing. */
export const toGroupInfo = (g: GroupDoc): Omit<Group, 'myRole' | 'myMutedUntil'> => ({
  id: g._id.toHexString(),
  name: g.name,
  ownerId: g.ownerId.toHexString(),
  panels: g.panels.map(toPanel),
  memberCount: g.memberCount,
  visibility: g.visibility ?? 'private',
  ...(g.description ? { description: g.description } : {}),
  ...(g.icon ? { icon: g.icon.toHexString() } : {}),
});

export const toDirectoryGroup = (g: GroupDoc): DirectoryGroup => ({
  id: g._id.toHexString(),
  name: g.name,
  memberCount: g.memberCount,
  ...(g.description ? { description: g.description } : {}),
});

/** A mute still running, as the API shows it (a past one is no mute). */
export const activeMute = (m: Pick<MemberDoc, 'mutedUntil'> | undefined): string | undefined =>
  m?.mutedUntil && m.mutedUntil.getTime() > Date.now() ? m.mutedUntil.toISOString() : undefined;

/** The group as the caller sees it: with their role, and their mute when one runs. */
export const toGroup = (g: GroupDoc, me: Pick<MemberDoc, 'role' | 'mutedUntil'>): Group => {
  const mutedUntil = activeMute(me);
  return { ...toGroupInfo(g), myRole: me.role, ...(mutedUntil ? { myMutedUntil: mutedUntil } : {}) };
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
