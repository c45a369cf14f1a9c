import type { UnreadEntry } from '@im/protocol';
import { matchSorter, rankings } from 'match-sorter';
import type { Route } from '../../state/route.ts';
import type { AppState } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';

/** One place the switcher can jump to. */
export interface SwitcherItem {
  key: string;
  kind: 'panel' | 'dm' | 'person';
  /** What is matched and shown: `general`, a person's name. */
  name: string;
  /** The group of a panel; a person's @username. */
  detail: string;
  /** Where choosing it goes; a person without a DM yet has the user's id to open one with. */
  route?: Route;
  userId?: string;
  unread: number;
  mentions: number;
}

/** Most items shown at once. */
export const SHOWN = 12;

type Sources = Pick<AppState, 'groups' | 'groupOrder' | 'dms' | 'dmOrder' | 'users' | 'members' | 'me' | 'unread'>;

const counts = (entry: UnreadEntry | undefined) => ({
  unread: Math.max(0, entry?.unread ?? 0),
  mentions: Math.max(0, entry?.mentions ?? 0),
});

/** Every panel of my groups, my DMs, then the people I share a group with but have no DM with. */
export function switcherItems(state: Sources): SwitcherItem[] {
  const me = state.me?.id;
  const items: SwitcherItem[] = [];
  for (const groupId of state.groupOrder) {
    const group = state.groups[groupId];
    if (!group) continue;
    for (const panel of group.panels) {
      if (panel.type === 'voice') continue;
      items.push({
        key: `panel:${panel.converseId}`,
        kind: 'panel',
        name: panel.name,
        detail: group.name,
        route: { name: 'group', groupId, converseId: panel.converseId },
        ...counts(state.unread[panel.converseId]),
      });
    }
  }
  const partners = new Set<string>();
  for (const id of state.dmOrder) {
    const dm = state.dms[id];
    if (!dm) continue;
    const other = dm.memberIds.find((m) => m !== me) ?? me;
    if (other) partners.add(other);
    const user = other ? state.users[other] : undefined;
    items.push({
      key: `dm:${id}`,
      kind: 'dm',
      name: displayName(user, user?.username ?? ''),
      detail: user ? `@${user.username}` : '',
      route: { name: 'dm', converseId: id },
      ...counts(state.unread[id]),
    });
  }
  // Members of my groups whose lists were loaded, and everyone else met in my converses.
  const people = new Map(Object.values(state.members).flatMap((list) => list.items.map((m) => [m.user.id, m.user])));
  for (const user of Object.values(state.users)) people.set(user.id, user);
  for (const [id, user] of people) {
    if (id === me || user.bot || partners.has(id)) continue;
    items.push({
      key: `person:${id}`,
      kind: 'person',
      name: displayName(user),
      detail: `@${user.username}`,
      userId: id,
      unread: 0,
      mentions: 0,
    });
  }
  return items;
}

/** Without words typed: recently opened converses first, then those with unread messages, then the rest in list order. */
function byRecency(items: SwitcherItem[], recent: readonly string[]): SwitcherItem[] {
  const rank = (item: SwitcherItem) => {
    const converseId = item.route && 'converseId' in item.route ? item.route.converseId : undefined;
    const at = converseId ? recent.indexOf(converseId) : -1;
    if (at >= 0) return at;
    if (item.unread > 0) return recent.length;
    return recent.length + 1 + (item.kind === 'person' ? 1 : 0);
  };
  return items
    .map((item, i) => ({ item, i, r: rank(item) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.item);
}

/**
 * The items matching `query` best first (a name equal to it, then starting
 * with it, a word starting with it, containing it, its initials, its letters
 * in order), ties going to recent converses; all of them by recency without
 * one. A leading `#` prefers panels, `@` people.
 */
export function rankItems(items: SwitcherItem[], query: string, recent: readonly string[]): SwitcherItem[] {
  const ordered = byRecency(items, recent);
  const typed = query.trim();
  const words = typed.replace(/^[#@]/, '');
  if (!words) return ordered.slice(0, SHOWN);
  const matched = matchSorter(ordered, words, {
    keys: ['name', { key: 'detail', threshold: rankings.CONTAINS }],
    // Equal matches keep the recency order.
    baseSort: (a, b) => a.index - b.index,
  });
  const wanted = (item: SwitcherItem) =>
    typed.startsWith('#') ? item.kind === 'panel' : typed.startsWith('@') ? item.kind !== 'panel' : true;
  return [...matched.filter(wanted), ...matched.filter((item) => !wanted(item))].slice(0, SHOWN);
}
