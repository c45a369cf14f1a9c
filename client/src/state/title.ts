import type { UnreadEntry } from '@im/protocol';
import { t } from '../i18n/i18n.ts';
import type { AppState } from './store.ts';
import { displayName } from './users.ts';

/** Every unread message across my converses (the server's counters, moved live); of a muted one only its mentions of me. */
export function unreadTotal(
  unread: Record<string, UnreadEntry>,
  muted: (converseId: string) => boolean = () => false,
): number {
  let total = 0;
  for (const entry of Object.values(unread))
    total += Math.max(0, muted(entry.converseId) ? entry.mentions : entry.unread);
  return total;
}

/** The tab's title led by the unread count when there is any, e.g. "(3) Chat". */
export function titleWithCount(base: string, total: number): string {
  return total > 0 ? t('switcher.tab.unread', { count: total, title: base }) : base;
}

/**
 * The tab's title without the count: where I am, then the app's name
 * ("#general · Team · Chat", a DM partner's name in a DM), or the name alone
 * elsewhere.
 */
export function placeTitle(app: string, state: Pick<AppState, 'route' | 'groups' | 'dms' | 'users' | 'me'>): string {
  const { route } = state;
  if (route.name === 'group' && route.converseId) {
    const group = state.groups[route.groupId];
    const panel = group?.panels.find((p) => p.converseId === route.converseId);
    if (group && panel) return t('switcher.tab.panel', { panel: panel.name, group: group.name, app });
  }
  if (route.name === 'dm') {
    const dm = state.dms[route.converseId];
    const other = dm?.memberIds.find((id) => id !== state.me?.id) ?? state.me?.id;
    const user = other ? state.users[other] : undefined;
    if (user) return t('switcher.tab.dm', { name: displayName(user), app });
  }
  return app;
}
