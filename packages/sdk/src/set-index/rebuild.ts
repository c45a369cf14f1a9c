import type { Logger } from '../logger.ts';
import type { Scored, SetIndexStore } from './set-index-store.ts';

/** Where an index is rebuilt from: the system of record (MongoDB). */
export interface IndexSource {
  /** Streams every entry `[key, member, score]`, in chunks (a cursor, not a query per key). */
  scan(load: (entries: readonly IndexEntry[]) => Promise<void>): Promise<void>;
  /** What the system of record holds now for these keys (a key left out is empty). */
  reread(keys: readonly string[]): Promise<Map<string, Scored[]>>;
}

/** An index entry: key, member, score. */
export type IndexEntry = readonly [key: string, member: string, score: number];

/** A cursor's documents as index entries, document by document. */
export async function* entriesFrom<D>(
  cursor: AsyncIterable<D>,
  entriesOf: (doc: D) => IndexEntry[],
): AsyncGenerator<IndexEntry[]> {
  for await (const doc of cursor) yield entriesOf(doc);
}

/** Sends streamed entries to `load`, `size` at a time: what every source's `scan` does with its cursors. */
export async function loadInChunks(
  entries: AsyncIterable<IndexEntry[]>,
  load: (entries: readonly IndexEntry[]) => Promise<void>,
  size = 2000,
): Promise<void> {
  let chunk: IndexEntry[] = [];
  for await (const some of entries) {
    chunk.push(...some);
    if (chunk.length < size) continue;
    const full = chunk;
    chunk = [];
    await load(full);
  }
  if (chunk.length) await load(chunk);
}

/** The sets of the `wanted` keys among `entries` (a re-read: entries of other keys are left out). */
export function setsOf(entries: Iterable<IndexEntry>, wanted: readonly string[]): Map<string, Scored[]> {
  const keys = new Set(wanted);
  const out = new Map<string, Scored[]>();
  for (const [key, member, score] of entries) {
    if (!keys.has(key)) continue;
    const list = out.get(key);
    if (list) list.push([member, score]);
    else out.set(key, [[member, score]]);
  }
  return out;
}

/** Dirty keys read again per round. */
const REREAD_BATCH = 500;

/**
 * Fills a new generation from the source and makes it the ready one.
 *
 * Writers change the system of record first and the index after, and while a
 * rebuild runs they also mark the keys they touched dirty in the generation
 * being built (in the same atomic step as their index change). The scan may
 * have read such a key before or after the write, so every dirty key is read
 * again after the scan and replaced whole; a write that lands during that
 * re-read marks its key dirty again. The switch to the new generation
 * happens only when no key is dirty, atomically with that check, so every
 * write either was re-read into the new generation or comes after the
 * switch, and then applies itself to the new generation (adds and removes
 * are idempotent, so applying a change that was already read is harmless).
 *
 * 'busy': another rebuild holds the lock (in a cluster, another node started
 * at the same moment); 'lost': this one's lock expired and another took over.
 */
export async function rebuildSetIndex(store: SetIndexStore, source: IndexSource): Promise<'built' | 'busy' | 'lost'> {
  const session = await store.beginRebuild();
  if (!session) return 'busy';
  try {
    await source.scan((entries) => session.load(entries));
    for (;;) {
      for (let keys = await session.takeDirty(REREAD_BATCH); keys.length; keys = await session.takeDirty(REREAD_BATCH))
        await session.replace(keys, await source.reread(keys));
      const outcome = await session.finish();
      if (outcome === 'done') return 'built';
      if (outcome === 'lost') {
        await session.abandon();
        return 'lost';
      }
    }
  } catch (err) {
    await session.abandon().catch(() => undefined);
    throw err;
  }
}

/** How long a node that found another rebuilding waits before checking that it finished. */
const RETRY_MS = 35_000;

/**
 * A service's rebuild at start: rebuilds now, and when another node held the
 * lock (or took it over) while no generation is ready yet, checks again
 * later and rebuilds itself if that node died on the way. Failures are
 * logged: readers keep querying the database, slower but never wrong.
 * Returns what stops the retries (the service's `stopped`).
 */
export async function rebuildAtStart(
  store: SetIndexStore | undefined,
  source: IndexSource,
  logger: Logger,
  name: string,
): Promise<() => void> {
  let timer: NodeJS.Timeout | undefined;
  const attempt = async (): Promise<void> => {
    const started = Date.now();
    try {
      if (!store || (timer && (await store.isReady()))) return;
      const outcome = await rebuildSetIndex(store, source);
      logger.info({ index: name, outcome, ms: Date.now() - started }, 'index rebuild');
      if (outcome !== 'built' && !(await store.isReady())) timer = setTimeout(() => void attempt(), RETRY_MS).unref();
    } catch (err) {
      logger.error({ err, index: name }, 'index rebuild failed');
    }
  };
  await attempt();
  return () => clearTimeout(timer);
}
