// Starting from the offline copy (db.ts): the app signed in with no server,
// showing what this device kept; and, at every start, the messages that were
// still unsent when the page closed.
import type { ConverseMessages, PendingMessage } from '../state/messages.ts';
import { emptyConverse } from '../state/messages.ts';
import { setState } from '../state/store.ts';
import { offlineDb, type Snapshot } from './db.ts';

/** The snapshot kept for this account, if any. */
export async function keptSnapshot(accountId: string | null): Promise<Snapshot | null> {
  if (!accountId) return null;
  const db = await offlineDb();
  return (await db?.get('snapshots', accountId).catch(() => undefined)) ?? null;
}

/**
 * Shows the kept lists and converses as if just loaded: the socket's sync,
 * once connected, brings what came since (from the last seq held of each).
 */
export async function showKeptCopy(snapshot: Snapshot): Promise<void> {
  const db = await offlineDb();
  const kept = (await db?.getAllFromIndex('converses', 'byAccount', snapshot.accountId).catch(() => [])) ?? [];
  setState((s) => {
    const converses = { ...s.converses };
    for (const c of kept) {
      const held = s.converses[c.converseId];
      // Loaded meanwhile (the connection came back first): the server's copy is newer. Else the
      // kept page, under the unsent messages already restored (offline start runs both at once).
      if (held?.loaded) continue;
      converses[c.converseId] = {
        ...emptyConverse(),
        items: c.items,
        pending: held?.pending ?? [],
        loaded: true,
        hasOlder: (c.items[0]?.seq ?? 1) > 1,
      } satisfies ConverseMessages;
    }
    // Lists loaded meanwhile are the server's, newer than the kept ones.
    if (s.groupsLoaded) return { converses };
    return {
      serverAdmin: snapshot.serverAdmin,
      groups: snapshot.groups,
      groupOrder: snapshot.groupOrder,
      groupsLoaded: true,
      dms: snapshot.dms,
      dmOrder: snapshot.dmOrder,
      users: { ...snapshot.users, ...s.users },
      unread: snapshot.unread,
      converses,
    };
  });
}

/** The account's unsent messages, oldest first, as pending messages waiting for the connection. */
export async function keptUnsent(accountId: string): Promise<PendingMessage[]> {
  const db = await offlineDb();
  const unsent = (await db?.getAllFromIndex('outbox', 'byAccount', accountId).catch(() => [])) ?? [];
  return unsent
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map(({ accountId: _account, ...p }) => ({ ...p, status: 'queued', error: undefined }));
}
