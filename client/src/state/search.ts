import type { Message } from '@im/protocol';
import { jumpToMessage } from './catch-up.ts';
import { navigate } from './navigation.ts';
import type { Route } from './route.ts';
import type { AppState } from './store.ts';
import { displayName, ensureUsers } from './users.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

/** Results asked for per search: a dialog's worth. */
export const SEARCH_LIMIT = 20;

/**
 * Messages I may see that match `q`, newest first: its words literally
 * (ignoring case), its filters read by the server, dates in my time zone.
 */
export async function searchMessages(q: string): Promise<Message[]> {
  const tzOffset = -new Date().getTimezoneOffset();
  const found = await api.call('chat.search', { q, limit: SEARCH_LIMIT, tzOffset });
  ensureUsers(found.map((m) => m.authorId));
  return found;
}

/** Where a message was said, as the sidebar names it, and the screen that shows it. */
export function placeOf(
  converseId: string,
  state: Pick<AppState, 'groups' | 'dms' | 'users' | 'me'>,
): { label: string; route: Route } {
  for (const group of Object.values(state.groups)) {
    const panel = group.panels.find((p) => p.converseId === converseId);
    if (panel)
      return {
        label: t('search.place.panel', { panel: panel.name, group: group.name }),
        route: { name: 'group', groupId: group.id, converseId },
      };
  }
  const dm = state.dms[converseId];
  if (dm) {
    const other = dm.memberIds.find((id) => id !== state.me?.id) ?? state.me?.id;
    return {
      label: displayName(other ? state.users[other] : undefined, t('search.place.dm')),
      route: { name: 'dm', converseId },
    };
  }
  return { label: t('search.place.unknown'), route: { name: 'converse', converseId } };
}

/** Characters of context kept on each side of the match. */
const CONTEXT = 48;

/**
 * The part of `content` around the first match of `q` (ignoring case), cut
 * at the edges with an ellipsis: `match` is the text to highlight, empty
 * when the query is not in it (an edit since the search).
 */
export function snippet(content: string, q: string): { before: string; match: string; after: string } {
  const flat = content.replace(/\s+/g, ' ').trim();
  const at = q ? flat.toLowerCase().indexOf(q.toLowerCase()) : -1;
  if (at < 0) {
    const cut = flat.length > CONTEXT * 2 ? `${flat.slice(0, CONTEXT * 2)}…` : flat;
    return { before: cut, match: '', after: '' };
  }
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(flat.length, at + q.length + CONTEXT);
  return {
    before: (start > 0 ? '…' : '') + flat.slice(start, at),
    match: flat.slice(at, at + q.length),
    after: flat.slice(at + q.length, end) + (end < flat.length ? '…' : ''),
  };
}

/** Opens a result: its converse, at the message, highlighted. */
export function openResult(message: Message, state: Pick<AppState, 'groups' | 'dms' | 'users' | 'me'>): void {
  // Asked for before the view opens, so it opens there rather than at the unread.
  void jumpToMessage(message.converseId, message.seq);
  navigate(placeOf(message.converseId, state).route);
}
