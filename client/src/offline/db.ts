// The copy of the signed-in account kept in this browser's IndexedDB, so the
// app starts and reads offline: a snapshot (me, my groups, panels and DMs,
// the people in them, the unread counters), the newest page of recently
// opened converses, and the messages not yet sent. One account at a time:
// signing out clears it all (see keep.ts).
import type { DmConverse, Group, Message, PublicUser, UnreadEntry } from '@im/protocol';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { PendingMessage } from '../state/messages.ts';

export interface Snapshot {
  accountId: string;
  me: PublicUser;
  serverAdmin: boolean;
  groups: Record<string, Group>;
  groupOrder: string[];
  dms: Record<string, DmConverse>;
  dmOrder: string[];
  users: Record<string, PublicUser>;
  unread: Record<string, UnreadEntry>;
  savedAt: number;
}

export interface KeptConverse {
  /** `${accountId}:${converseId}` */
  key: string;
  accountId: string;
  converseId: string;
  /** The newest messages held, oldest first. */
  items: Message[];
  savedAt: number;
}

export interface Unsent extends PendingMessage {
  accountId: string;
}

interface OfflineSchema extends DBSchema {
  snapshots: { key: string; value: Snapshot };
  converses: { key: string; value: KeptConverse; indexes: { byAccount: string } };
  outbox: { key: string; value: Unsent; indexes: { byAccount: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const NAME = 'im-offline';

/** The database, opened once per page; null where the browser has no IndexedDB (or refuses it). */
export const offlineDb: () => Promise<OfflineDb | null> = (() => {
  let opening: Promise<OfflineDb | null> | undefined;
  return () =>
    (opening ??=
      typeof indexedDB === 'undefined'
        ? Promise.resolve(null)
        : openDB<OfflineSchema>(NAME, 1, {
            upgrade(db) {
              db.createObjectStore('snapshots', { keyPath: 'accountId' });
              db.createObjectStore('converses', { keyPath: 'key' }).createIndex('byAccount', 'accountId');
              db.createObjectStore('outbox', { keyPath: 'clientMsgId' }).createIndex('byAccount', 'accountId');
            },
          }).catch(() => null));
})();

/** Empties every store: nothing of the account stays in this browser. */
export async function clearOfflineData(): Promise<void> {
  const db = await offlineDb();
  if (!db) return;
  const tx = db.transaction(['snapshots', 'converses', 'outbox'], 'readwrite');
  await Promise.all([
    tx.objectStore('snapshots').clear(),
    tx.objectStore('converses').clear(),
    tx.objectStore('outbox').clear(),
    tx.done,
  ]);
}
