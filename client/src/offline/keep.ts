// Keeps the offline copy (db.ts) in step with the app's store while signed
// in: the snapshot and the converses a little after they change, the unsent
// messages at once (a reload right after sending must not lose one).
import type { AppState } from '../state/store.ts';
import { useStore } from '../state/store.ts';
import { forgetOnSignOut } from '../state/account-state.ts';
import { clearOfflineData, offlineDb, type KeptConverse, type Snapshot, type Unsent } from './db.ts';

/** How many converses keep their newest messages, the most recently changed first. */
export const KEPT_CONVERSES = 20;
/** How many of a converse's newest messages are kept. */
export const KEPT_MESSAGES = 50;
const SAVE_DELAY_MS = 1000;

/** What keep.ts is doing for the signed-in account: its subscription and its waiting save. */
const keeping = {
  stop: null as (() => void) | null,
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  changed: new Set<string>(),
  snapshot: false,
};

// Signing out (or the server ending the session) leaves nothing of the account in this browser.
forgetOnSignOut('offline copy', () => {
  keeping.stop?.();
  keeping.stop = null;
  clearTimeout(keeping.timer);
  keeping.timer = undefined;
  keeping.changed.clear();
  keeping.snapshot = false;
  void clearOfflineData();
});

/** Starts keeping the signed-in account's offline copy (once per session). */
export function keepOfflineCopy(accountId: string): void {
  keeping.stop?.();
  // The first save has the snapshot too: the profile was set before this subscribed.
  keeping.snapshot = true;
  keeping.stop = useStore.subscribe((s, prev) => {
    if (s.me?.id !== accountId) return;
    if (
      s.me !== prev.me ||
      s.groups !== prev.groups ||
      s.dms !== prev.dms ||
      s.users !== prev.users ||
      s.unread !== prev.unread ||
      s.serverAdmin !== prev.serverAdmin
    )
      keeping.snapshot = true;
    if (s.converses !== prev.converses) {
      const pendingMoved: string[] = [];
      for (const [converseId, c] of Object.entries(s.converses)) {
        const before = prev.converses[converseId];
        if (c === before) continue;
        if (c.items !== before?.items) keeping.changed.add(converseId);
        if (c.pending !== before?.pending) pendingMoved.push(converseId);
      }
      if (pendingMoved.length > 0) void saveUnsent(accountId, s, pendingMoved);
    }
    // At most one save a second: the store changes all the time (presence, typing), which must not put it off.
    if ((keeping.snapshot || keeping.changed.size > 0) && keeping.timer === undefined) {
      keeping.timer = setTimeout(() => {
        keeping.timer = undefined;
        void saveSoon(accountId);
      }, SAVE_DELAY_MS);
    }
  });
}

async function saveSoon(accountId: string): Promise<void> {
  const s = useStore.getState();
  if (s.me?.id !== accountId) return;
  const converseIds = [...keeping.changed];
  const snapshot = keeping.snapshot;
  keeping.changed.clear();
  keeping.snapshot = false;
  const db = await offlineDb();
  if (!db) return;
  const now = Date.now();
  const tx = db.transaction(['snapshots', 'converses'], 'readwrite');
  const writes: Array<Promise<unknown>> = [];
  if (snapshot) writes.push(tx.objectStore('snapshots').put(snapshotOf(accountId, s, now)));
  for (const converseId of converseIds) {
    const c = s.converses[converseId];
    // Only the newest page, and only a run that reaches the newest message: reading offline starts there.
    if (!c?.loaded || c.hasNewer || c.items.length === 0) continue;
    const kept: KeptConverse = {
      key: `${accountId}:${converseId}`,
      accountId,
      converseId,
      items: c.items.slice(-KEPT_MESSAGES),
      savedAt: now,
    };
    writes.push(tx.objectStore('converses').put(kept));
  }
  await Promise.all([...writes, tx.done]).catch(() => undefined);
  await pruneConverses(accountId);
}

function snapshotOf(accountId: string, s: AppState, savedAt: number): Snapshot {
  return {
    accountId,
    me: s.me!,
    serverAdmin: s.serverAdmin,
    groups: s.groups,
    groupOrder: s.groupOrder,
    dms: s.dms,
    dmOrder: s.dmOrder,
    users: s.users,
    unread: s.unread,
    savedAt,
  };
}

/** Only the KEPT_CONVERSES most recently changed converses stay. */
async function pruneConverses(accountId: string): Promise<void> {
  const db = await offlineDb();
  if (!db) return;
  const all = await db.getAllFromIndex('converses', 'byAccount', accountId);
  const old = all.sort((a, b) => b.savedAt - a.savedAt).slice(KEPT_CONVERSES);
  if (old.length === 0) return;
  const tx = db.transaction('converses', 'readwrite');
  await Promise.all([...old.map((c) => tx.store.delete(c.key)), tx.done]).catch(() => undefined);
}

/**
 * The outbox mirrors the pending messages of the converses that changed:
 * what the app still shows as unsent is kept, what was sent or cancelled goes.
 */
async function saveUnsent(accountId: string, s: AppState, converseIds: string[]): Promise<void> {
  const db = await offlineDb();
  if (!db) return;
  const tx = db.transaction('outbox', 'readwrite');
  const kept = await tx.store.index('byAccount').getAll(accountId);
  const writes: Array<Promise<unknown>> = [];
  for (const converseId of converseIds) {
    const pending = s.converses[converseId]?.pending ?? [];
    const now = new Set(pending.map((p) => p.clientMsgId));
    for (const old of kept)
      if (old.converseId === converseId && !now.has(old.clientMsgId)) writes.push(tx.store.delete(old.clientMsgId));
    for (const p of pending) writes.push(tx.store.put({ ...p, accountId } satisfies Unsent));
  }
  await Promise.all([...writes, tx.done]).catch(() => undefined);
}
