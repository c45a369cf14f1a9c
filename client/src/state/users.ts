import { t } from '../i18n/i18n.ts';
import type { PublicUser } from '@im/protocol';
import { getState, setState } from './store.ts';
import { accountSet, forgetOnSignOut } from './account-state.ts';
import { api } from '../api/api.ts';

const inFlight = accountSet<string>('people asked for');
const queued = accountSet<string>('people to ask for');
let scheduled = false;

forgetOnSignOut('people batch', () => {
  scheduled = false;
});

export function rememberUsers(users: PublicUser[]): void {
  if (users.length === 0) return;
  setState((s) => {
    const next = { ...s.users };
    for (const u of users) next[u.id] = u;
    return { users: next };
  });
}

/** Loads the users not yet known, the requests of one turn together. */
export function ensureUsers(ids: Iterable<string>): void {
  const known = getState().users;
  for (const id of ids) if (!known[id] && !inFlight.has(id)) queued.add(id);
  if (queued.size === 0 || scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    const batch = [...queued];
    queued.clear();
    for (const id of batch) inFlight.add(id);
    void Promise.all(
      batch.map((id) =>
        api
          .call('user.get', { userId: id })
          .then((u) => u)
          .catch(() => null),
      ),
    ).then((found) => {
      for (const id of batch) inFlight.delete(id);
      rememberUsers(found.filter((u): u is PublicUser => u !== null));
    });
  });
}

export function displayName(user: PublicUser | undefined, fallback = t('common.someone')): string {
  if (!user) return fallback;
  return user.nickname || user.username;
}

/**
 * Someone changed their name or avatar: every place that shows them (authors,
 * member lists, my own bar) takes the new profile at once.
 */
export function applyUserUpdated(user: PublicUser): void {
  setState((s) => {
    const members = Object.fromEntries(
      Object.entries(s.members).map(([groupId, list]) =>
        list.items.some((m) => m.user.id === user.id)
          ? [groupId, { ...list, items: list.items.map((m) => (m.user.id === user.id ? { ...m, user } : m)) }]
          : [groupId, list],
      ),
    );
    return {
      users: { ...s.users, [user.id]: user },
      members,
      ...(s.me?.id === user.id ? { me: { ...s.me, ...user } } : {}),
    };
  });
}
