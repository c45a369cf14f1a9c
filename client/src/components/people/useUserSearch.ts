import { t } from '../../i18n/i18n.ts';
import type { PublicUser } from '@im/protocol';
import { useEffect, useState } from 'react';
import { loadPresence } from '../../state/presence.ts';
import { rememberUsers } from '../../state/users.ts';
import { api } from '../../api/api.ts';

/** Typing pauses this long before a search goes out (searches are rate-limited per user). */
const DEBOUNCE_MS = 300;
const LIMIT = 10;

export interface UserSearch {
  results: PublicUser[];
  searching: boolean;
  error?: string;
}

/** People whose username or display name starts with `query`: bots and I are left out (neither can be messaged). */
export function useUserSearch(query: string, meId: string | undefined): UserSearch {
  const [state, setState] = useState<UserSearch>({ results: [], searching: false });
  const q = query.trim();
  useEffect(() => {
    if (!q) {
      setState({ results: [], searching: false });
      return;
    }
    let current = true;
    setState((s) => ({ ...s, searching: true }));
    const timer = setTimeout(() => {
      api
        .call('user.search', { q, limit: LIMIT })
        .then((found) => {
          if (!current) return;
          rememberUsers(found);
          const people = found.filter((u) => !u.bot && u.id !== meId);
          setState({ results: people, searching: false });
          void loadPresence(people.map((u) => u.id));
        })
        .catch(() => current && setState({ results: [], searching: false, error: t('search.people.failed') }));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, meId]);
  return state;
}
