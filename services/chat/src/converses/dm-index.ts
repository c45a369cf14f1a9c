import {
  batchLoader,
  entriesFrom,
  loadInChunks,
  rebuildAtStart,
  setsOf,
  type IndexEntry,
  type Logger,
  type SetIndexStore,
} from '@im/sdk';
import type { ConverseDoc } from '../models.ts';
import type { DmSource } from '../store/dm-records.ts';

/** `d:<userId>`: the user's DMs. Listed in id order, which is the order they were opened in. */
const dmsKey = (userId: string) => `d:${userId}`;
const DM_SCORE = 0;
const entriesOf = (doc: Pick<ConverseDoc, '_id' | 'memberIds'>): IndexEntry[] =>
  (doc.memberIds ?? []).map((m) => [dmsKey(m.toHexString()), doc._id.toHexString(), DM_SCORE]);

/**
 * Each user's DM ids, the chat service's half of the rooms a connect joins
 * (the group service keeps the other half). Written by the DM records when
 * one is opened (DMs are never deleted), rebuilt from the `converses` collection
 * at start; the same store and rebuild as the group service's index.
 */
export class DmIndex {
  readonly #store: SetIndexStore | undefined;
  readonly #source: DmSource;
  readonly #logger: Logger;
  readonly #read: (userId: string) => Promise<string[] | undefined>;

  constructor(store: SetIndexStore | undefined, source: DmSource, logger: Logger) {
    this.#store = store;
    this.#source = source;
    this.#logger = logger;
    // Every connect of one event-loop turn in one store read.
    this.#read = batchLoader(async (userIds) => {
      const none = userIds.map(() => undefined);
      try {
        const found = store && (await store.read(userIds.map(dmsKey)));
        return found ? found.members : none;
      } catch (err) {
        // The store is unreachable: the database answers instead.
        logger.error({ err }, 'DM index could not be read');
        return none;
      }
    });
  }

  /** The user's DM ids, or undefined when the index cannot answer (not ready, or none on this node). */
  dmIdsOf(userId: string): Promise<string[] | undefined> {
    return this.#read(userId);
  }

  /** A DM exists between these users (opened now, or before: adding it again changes nothing). */
  async opened(dmId: string, memberIds: readonly string[]): Promise<void> {
    try {
      await this.#store?.apply(
        memberIds.map((m) => ({ kind: 'add', key: dmsKey(m), members: [[dmId, DM_SCORE]] })),
        memberIds.map(dmsKey),
      );
    } catch (err) {
      // The DM stands; the next rebuild puts the index right.
      this.#logger.error({ err }, 'DM index could not be updated');
    }
  }

  /** Builds a generation from MongoDB (one node of a cluster at a time; rebuild.ts). Returns what stops its retries. */
  rebuild(): Promise<() => void> {
    const source = this.#source;
    return rebuildAtStart(
      this.#store,
      {
        scan: (load) => loadInChunks(entriesFrom(source.all(), entriesOf), load),
        reread: async (keys) => {
          const userIds = keys.map((k) => k.slice('d:'.length));
          const docs = await source.ofMembers(userIds);
          return setsOf(docs.flatMap(entriesOf), keys);
        },
      },
      this.#logger,
      'dms',
    );
  }
}
