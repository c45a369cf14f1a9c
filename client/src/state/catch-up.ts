import { describeError } from '../api/errors.ts';
import { openConverse, PAGE_SIZE, patchConverse, readIfAtNewest, resetConverse, setAtBottom } from './conversations.ts';
import { dropConfirmed } from './messages.ts';
import { getState, notify } from './store.ts';
import { ensureUsers } from './users.ts';
import { accountSet, accountStore, forgetOnSignOut } from './account-state.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';

/** Where an open converse's list is to show: a message to bring into view, or (none) the newest. */
export interface Place {
  /** Changes with every jump: the list starts afresh at the new place. */
  token: number;
  focus?: { seq: number; highlight: boolean };
}

interface CatchUpState {
  places: Record<string, Place>;
  /** converseId → the first unread seq when it was opened: the "New messages" divider goes above it. */
  dividers: Record<string, number>;
}

/** Kept apart from the app store: only the open converse's list reads it. */
export const useCatchUp = accountStore<CatchUpState>('catch-up places', () => ({ places: {}, dividers: {} }));

/** An unread run longer than this opens around its first message rather than with the newest page. */
const NEWEST_PAGE_REACH = PAGE_SIZE - 10;

let tokens = 0;
function place(converseId: string, focus?: Place['focus']): void {
  tokens += 1;
  const next: Place = { token: tokens, ...(focus ? { focus } : {}) };
  useCatchUp.setState((s) => ({ places: { ...s.places, [converseId]: next } }));
}

/** Converses a jump was asked for before their view opened: the view shows that instead of the unread. */
const requested = accountSet<string>('jumps asked for');
/** The converse whose view is open now. */
let shown: string | null = null;

export function showingConverse(converseId: string | null): void {
  shown = converseId;
}

const holds = (converseId: string, seq: number) =>
  getState().converses[converseId]?.items.some((m) => m.seq === seq) ?? false;

/**
 * Loads the page centred on `seq` in place of what is held (it may not
 * join it): the list becomes a window that may stop short of the newest.
 */
export async function loadAround(converseId: string, seq: number): Promise<void> {
  patchConverse(converseId, () => ({ loadingOlder: true }));
  try {
    const page = await api.call('chat.history', { converseId, around: seq, limit: PAGE_SIZE });
    const known = getState().unread[converseId]?.lastSeq ?? 0;
    const end = page.at(-1)?.seq ?? 0;
    patchConverse(converseId, (c) => ({
      items: page,
      pending: dropConfirmed(c.pending, page),
      loaded: true,
      hasOlder: page.length > 0 && page[0]!.seq > 1,
      // A short page holds the whole converse; otherwise the counters say whether more came after it.
      hasNewer: page.length === PAGE_SIZE && end < known,
      loadingOlder: false,
    }));
    ensureUsers(page.map((m) => m.authorId));
  } catch (err) {
    patchConverse(converseId, () => ({ loadingOlder: false }));
    notify(t('notices.loadMessages', { reason: describeError(err) }));
  }
}

const loadingNewer = accountSet<string>('newer pages loading');

forgetOnSignOut('catch-up view', () => {
  tokens = 0;
  shown = null;
});

/** Extends a window towards the newest (scrolled to its end); once it gets there, live messages join again. */
export async function loadNewer(converseId: string): Promise<void> {
  const held = getState().converses[converseId];
  const end = held?.items.at(-1)?.seq;
  if (!held?.hasNewer || end === undefined || loadingNewer.has(converseId)) return;
  loadingNewer.add(converseId);
  try {
    const page = await api.call('chat.history', { converseId, after: end, limit: PAGE_SIZE });
    const reached = (page.at(-1)?.seq ?? end) >= (getState().unread[converseId]?.lastSeq ?? 0);
    patchConverse(converseId, (c) => ({
      items: [...c.items, ...page.filter((m) => m.seq > (c.items.at(-1)?.seq ?? 0))],
      pending: dropConfirmed(c.pending, page),
      hasNewer: page.length === PAGE_SIZE || !reached,
    }));
    ensureUsers(page.map((m) => m.authorId));
    // The window may now end at the newest with its end still in view: read.
    readIfAtNewest(converseId);
  } catch (err) {
    notify(t('notices.loadNewer', { reason: describeError(err) }));
  } finally {
    loadingNewer.delete(converseId);
  }
}

/** Back to the newest messages: a window short of them is swapped for the newest page. */
export async function jumpToPresent(converseId: string): Promise<void> {
  place(converseId);
  if (!getState().converses[converseId]?.hasNewer) return;
  resetConverse(converseId);
  await openConverse(converseId);
}

/** Opens a converse at one of its messages (a search result), highlighted, loading the page around it if needed. */
export async function jumpToMessage(converseId: string, seq: number): Promise<void> {
  if (shown !== converseId) requested.add(converseId);
  useCatchUp.setState((s) => {
    const { [converseId]: _gone, ...dividers } = s.dividers;
    return { dividers };
  });
  place(converseId, { seq, highlight: true });
  setAtBottom(converseId, false);
  if (!holds(converseId, seq)) await loadAround(converseId, seq);
}

/**
 * A converse's view opens: at a message asked for, else at its first unread
 * message under a "New messages" divider (loading the page around it when
 * the newest page would not reach it), else at the newest.
 */
export async function enterConverse(converseId: string): Promise<void> {
  if (requested.delete(converseId)) return;
  const entry = getState().unread[converseId];
  const first = entry && entry.unread > 0 ? entry.readSeq + 1 : undefined;
  useCatchUp.setState((s) => {
    const { [converseId]: _gone, ...rest } = s.dividers;
    return { dividers: first === undefined ? rest : { ...rest, [converseId]: first } };
  });
  if (first === undefined) {
    place(converseId);
    // A window left short of the newest last time: this visit starts at the newest.
    if (getState().converses[converseId]?.hasNewer) resetConverse(converseId);
    return openConverse(converseId);
  }
  place(converseId, { seq: first, highlight: false });
  // Not read until scrolled down to the newest.
  setAtBottom(converseId, false);
  const held = getState().converses[converseId];
  if (held?.loaded && holds(converseId, first)) return;
  if (held?.loaded || entry!.lastSeq - first >= NEWEST_PAGE_REACH) return loadAround(converseId, first);
  return openConverse(converseId);
}
