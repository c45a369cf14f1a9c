import type { Group, GroupRole, Panel } from '@im/protocol';
import type { GroupDoc, PanelDoc } from './models.ts';

export const toPanel = (p: PanelDoc): Panel => ({
  id: p._id.toHexString(),
  name: p.name,
  type: p.type,
  converseId: p.converseId.toHexString(),
});

/** The group as events carry it: everything but the caller's role. */
export const toGroupInfo = (g: GroupDoc): Omit<Group, 'myRole'> => ({
  id: g._id.toHexString(),
  name: g.name,
  ownerId: g.ownerId.toHexString(),
  panels: g.panels.map(toPanel),
  memberCount: g.memberCount,
});

export const toGroup = (g: GroupDoc, myRole: GroupRole): Group => ({ ...toGroupInfo(g), myRole });

export const converseIdsOf = (g: Pick<GroupDoc, 'panels'>): string[] => g.panels.map((p) => p.converseId.toHexString());
