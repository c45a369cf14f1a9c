import type { AppState } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { filterValue } from '../../state/search-filters.ts';

/** One name a `from:` or `in:` being typed may become. */
export interface Completion {
  key: string;
  /** What replaces the filter being typed (`from:@alice`). */
  insert: string;
  /** What the list shows. */
  label: string;
  detail: string;
}

const MAX = 8;

type Sources = Pick<AppState, 'groups' | 'groupOrder' | 'dms' | 'dmOrder' | 'users' | 'members' | 'me'>;

const starts = (partial: string, ...names: string[]) =>
  names.some((n) => n.toLowerCase().startsWith(partial.toLowerCase()));

/** People I know of: members of my groups whose lists are loaded and everyone met in my converses. */
function people(state: Sources) {
  const all = new Map(Object.values(state.members).flatMap((l) => l.items.map((m) => [m.user.id, m.user])));
  for (const user of Object.values(state.users)) all.set(user.id, user);
  return [...all.values()].filter((u) => !u.bot);
}

/** Names for `from:` (people) or `in:` (my panels, and the people of my DMs), starting with what is typed. */
export function completionsFor(key: 'from' | 'in', partial: string, state: Sources): Completion[] {
  const out: Completion[] = [];
  if (key === 'from') {
    for (const user of people(state))
      if (starts(partial, user.username, displayName(user)))
        out.push({
          key: user.id,
          insert: `from:${filterValue('@', user.username)}`,
          label: `@${user.username}`,
          detail: displayName(user),
        });
    return out.slice(0, MAX);
  }
  for (const groupId of state.groupOrder) {
    const group = state.groups[groupId];
    for (const panel of group?.panels ?? [])
      if (panel.type !== 'voice' && starts(partial, panel.name))
        out.push({
          key: panel.converseId,
          insert: `in:${filterValue('#', panel.name)}`,
          label: `#${panel.name}`,
          detail: group!.name,
        });
  }
  for (const id of state.dmOrder) {
    const other = state.dms[id]?.memberIds.find((m) => m !== state.me?.id);
    const user = other ? state.users[other] : undefined;
    if (user && starts(partial, user.username, displayName(user)))
      out.push({
        key: id,
        insert: `in:${filterValue('@', user.username)}`,
        label: `@${user.username}`,
        detail: displayName(user),
      });
  }
  return out.slice(0, MAX);
}
