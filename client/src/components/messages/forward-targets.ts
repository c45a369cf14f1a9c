import { t } from '../../i18n/i18n.ts';
import type { DmConverse, Group, PublicUser } from '@im/protocol';
import { displayName } from '../../state/users.ts';
import { postingState } from './posting.ts';

/** A converse a message can be forwarded into. */
export interface ForwardTarget {
  converseId: string;
  label: string;
}

/**
 * The converses I can write in: text panels of my groups where I may post
 * now (not read-only for me, not muted), and my DMs; filtered by `query`
 * (a part of the label), panels first, by label.
 */
export function forwardTargets(
  state: { groups: Record<string, Group>; dms: Record<string, DmConverse>; users: Record<string, PublicUser> },
  meId: string,
  query: string,
  now = Date.now(),
): ForwardTarget[] {
  const q = query.trim().toLowerCase();
  const panels: ForwardTarget[] = [];
  for (const group of Object.values(state.groups))
    for (const panel of group.panels) {
      if (panel.type === 'voice') continue;
      const posting = postingState(
        { myRole: group.myRole, postingRole: panel.postingRole, myMutedUntil: group.myMutedUntil },
        now,
      );
      if (posting.mode === 'open')
        panels.push({ converseId: panel.converseId, label: `#${panel.name} · ${group.name}` });
    }
  const dms: ForwardTarget[] = Object.values(state.dms).map((dm) => {
    const other = dm.memberIds.find((id) => id !== meId) ?? meId;
    return { converseId: dm.id, label: displayName(state.users[other], t('posts.forward.dm')) };
  });
  const byLabel = (a: ForwardTarget, b: ForwardTarget) => a.label.localeCompare(b.label);
  return [...panels.sort(byLabel), ...dms.sort(byLabel)].filter((t) => !q || t.label.toLowerCase().includes(q));
}
