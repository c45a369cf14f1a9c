import type { ConverseNotificationSetting, Notification, NotificationLevel, UnreadEntry } from '@im/protocol';
import type { ChatSocket } from '../api/socket.ts';
import { accountStore, forgetOnSignOut } from './account-state.ts';
import { useCatchUp } from './catch-up.ts';
import { holdRead } from './conversations.ts';
import { setState, type AppState } from './store.ts';
import type { Badge } from './unread.ts';
import { api } from '../api/api.ts';

/** Converses with this many members or more default to `mentions` (the server's rule, shared/API.md). */
const LARGE_CONVERSE_MEMBERS = 100;

interface AttentionState {
  /** converseId → the level I set (converses not here have their default). */
  levels: Record<string, ConverseNotificationSetting>;
  /** Inbox entries not yet read: the bell's count. */
  inboxUnread: number;
  /** The inbox as last loaded (newest first), null until the bell is first opened. */
  inbox: Notification[] | null;
}

/** My notification levels and inbox: kept apart from the app store, forgotten at sign-out. */
export const useAttention = accountStore<AttentionState>('notification levels and inbox', () => ({
  levels: {},
  inboxUnread: 0,
  inbox: null,
}));

/** Longest a timer may wait (setTimeout's limit, about 24 days): a later mute end is looked at again then. */
const TIMER_MAX_MS = 2 ** 31 - 1;
let muteEnds: ReturnType<typeof setTimeout> | undefined;

// When the soonest mute ends, the badges, title and menus are drawn again (they read the time as they draw).
useAttention.subscribe((s, before) => {
  if (s.levels === before.levels) return;
  clearTimeout(muteEnds);
  const now = Date.now();
  const ends = Object.values(s.levels)
    .map((l) => (l.muteUntil ? Date.parse(l.muteUntil) : NaN))
    .filter((at) => at > now);
  if (ends.length === 0) return;
  const wait = Math.min(Math.min(...ends) - now + 50, TIMER_MAX_MS);
  muteEnds = setTimeout(() => useAttention.setState((st) => ({ levels: { ...st.levels } })), wait);
});
forgetOnSignOut('mute end timer', () => clearTimeout(muteEnds));

/** A converse's level nobody set: `all` in DMs and groups under 100 members, else `mentions`. */
export function defaultLevel(converseId: string, app: Pick<AppState, 'groups' | 'dms'>): NotificationLevel {
  if (app.dms[converseId]) return 'all';
  const group = Object.values(app.groups).find((g) => g.panels.some((p) => p.converseId === converseId));
  return group && group.memberCount < LARGE_CONVERSE_MEMBERS ? 'all' : 'mentions';
}

/** My setting of a converse: the one I set, else its default. */
export function settingOf(
  converseId: string,
  app: Pick<AppState, 'groups' | 'dms'>,
  levels: Record<string, ConverseNotificationSetting>,
): ConverseNotificationSetting {
  return levels[converseId] ?? { level: defaultLevel(converseId, app), muteUntil: null };
}

/** Level `none`, or a mute still running. */
export function isMuted(setting: ConverseNotificationSetting | undefined, now = Date.now()): boolean {
  if (!setting) return false;
  return setting.level === 'none' || (setting.muteUntil !== null && Date.parse(setting.muteUntil) > now);
}

/** What a converse's badge shows: a muted one only its mentions of me. */
export const heardBadge = (counts: Badge, muted: boolean): Badge =>
  muted ? { unread: 0, mentions: counts.mentions } : counts;

/** Whether I muted this converse (by my levels as held now). */
export const mutedConverse = (converseId: string): boolean => isMuted(useAttention.getState().levels[converseId]);

/** My levels and the bell's count, after every connect (events sent while away are gone). */
export async function loadAttention(): Promise<void> {
  const [settings, { unread }] = await Promise.all([api.call('push.getSettings'), api.call('push.unread')]);
  useAttention.setState({ levels: settings.converses, inboxUnread: unread });
}

export async function setConverseLevel(
  converseId: string,
  level: NotificationLevel,
  muteUntil: string | null = null,
): Promise<void> {
  const setting = await api.call('push.setConverseLevel', { converseId, level, muteUntil });
  applyLevel(converseId, setting);
}

function applyLevel(converseId: string, setting: ConverseNotificationSetting): void {
  useAttention.setState((s) => ({ levels: { ...s.levels, [converseId]: setting } }));
}

export async function loadInbox(): Promise<void> {
  const page = await api.call('push.inbox', { limit: 50 });
  useAttention.setState({ inbox: page.items });
}

/** Marks every inbox entry read. */
export async function markInboxRead(): Promise<void> {
  const { unread } = await api.call('push.markRead');
  useAttention.setState((s) => ({ inboxUnread: unread, inbox: s.inbox?.map((n) => ({ ...n, read: true })) ?? null }));
}

/** Marks one entry (and the older ones) read as it is opened. */
export async function markEntryRead(entry: Notification): Promise<void> {
  if (entry.read) return;
  const { unread } = await api.call('push.markRead', { upTo: entry.id });
  useAttention.setState((s) => ({
    inboxUnread: unread,
    inbox: s.inbox?.map((n) => (n.id <= entry.id ? { ...n, read: true } : n)) ?? null,
  }));
}

/**
 * Marks a converse unread from message `seq` on: my read position goes back
 * to just before it, the "New messages" divider goes above it, and the open
 * view does not read it again until I come back to it.
 */
export async function markUnreadFrom(converseId: string, seq: number): Promise<void> {
  applyUnreadEntry(await api.call('chat.markUnread', { converseId, seq }));
}

export function applyUnreadEntry(entry: UnreadEntry): void {
  holdRead(entry.converseId);
  setState((s) => ({ unread: { ...s.unread, [entry.converseId]: entry } }));
  if (entry.unread > 0)
    useCatchUp.setState((s) => ({ dividers: { ...s.dividers, [entry.converseId]: entry.readSeq + 1 } }));
}

/** My other devices changed a level, read the inbox, or marked a converse unread. */
export function attachAttentionEvents(socket: ChatSocket): void {
  socket.on('converse:notifications', ({ converseId, level, muteUntil }) =>
    applyLevel(converseId, { level, muteUntil }),
  );
  socket.on('inbox:updated', ({ unread }) => {
    useAttention.setState({ inboxUnread: unread });
    // A list already shown comes again with the new entry (or the read ones).
    if (useAttention.getState().inbox) void loadInbox().catch(() => undefined);
  });
  socket.on('converse:unread', (entry) => applyUnreadEntry(entry));
}
