import { batchLoader, withOwnObjectIds } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatModels, ConverseDoc, MessageDoc } from '../models.ts';

/** Most messages kept per converse: all a reconnect's sync may answer, and a few history pages. */
export const RECENT_PER_CONVERSE = 200;

/** A converse nobody read or wrote for this long leaves memory: what is kept is what people are using. */
export const RECENT_IDLE_MS = 10 * 60_000;

/**
 * Roughly what one kept message takes: its object, ids and their buffers,
 * dates and arrays (a soak run's heap snapshots: 3,000 more kept messages of
 * short chat text, about 1.3 KB each with their text), plus its text at two
 * bytes a character (the worst case) and its parts.
 */
export function estimatedBytes(doc: MessageDoc): number {
  const parts = (doc.attachments?.length ?? 0) + (doc.mentions?.length ?? 0);
  const reactions = doc.reactionCounts ? Object.keys(doc.reactionCounts).length : 0;
  return 1_100 + 2 * (doc.content?.length ?? 0) + 200 * parts + 100 * reactions;
}

export interface RecentOptions {
  /** Estimated bytes all kept messages may take (estimatedBytes). Default: no bound but the count. */
  maxBytes?: number;
  /** A converse unused this long is dropped (default RECENT_IDLE_MS). */
  idleMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Where a converse stands: `lastSeq` moves with every send, `rev` with every change to a stored message. */
export interface ConverseStamp {
  lastSeq: number;
  rev: number;
}

/** Seqs wanted: above `after`, below `before`; the newest `limit` of them, or the oldest when `after` is set. */
export interface SeqRange {
  before?: number;
  after?: number;
  limit: number;
}

/** The newest messages of one converse as of a stamp: ascending, without gaps, the last at `lastSeq`. */
interface Tail extends ConverseStamp {
  docs: MessageDoc[];
  /** Estimated bytes of `docs`. */
  bytes: number;
  /** Last read or written (ms). */
  usedAt: number;
}

const sameStamp = (a: ConverseStamp, b: ConverseStamp) => a.lastSeq === b.lastSeq && a.rev === b.rev;

/**
 * The newest end of each busy converse, kept in this node's memory, so that
 * opening a converse, the pages just above it and a reconnect's sync read
 * no messages from the database. A range read scans the messages on the dev
 * databases (they use no index for it), and even on MongoDB it is the
 * commonest read there is.
 *
 * Never stale: every read first reads the converse's stamp (one lookup by
 * `_id`, batched over the callers of a turn) and uses the kept tail only if
 * it was taken at that very stamp. This node's own writes move its tails
 * forward; another node's writes make them miss once and refill. A tail is
 * kept only when it holds every seq up to the stamp's `lastSeq`, so a batch
 * still being written (its seqs reserved, its messages not yet stored) is
 * never kept as missing.
 */
export class RecentMessages {
  readonly #models: ChatModels;
  /** Most messages kept in all; 0: nothing is kept. */
  readonly #capacity: number;
  /** Least recently used first (a Map iterates in insertion order). */
  readonly #tails = new Map<string, Tail>();
  #size = 0;
  #bytes = 0;
  readonly #maxBytes: number;
  readonly #idleMs: number;
  readonly #now: () => number;
  /** Fills under way, by converse and stamp: concurrent misses share one read. */
  readonly #filling = new Map<string, Promise<Tail | undefined>>();

  /** The stamps of the converses asked for in this turn, with one query. */
  readonly stampOf: (converseId: string) => Promise<ConverseStamp>;

  constructor(models: ChatModels, capacity: number, options: RecentOptions = {}) {
    this.#models = models;
    this.#capacity = capacity;
    this.#maxBytes = options.maxBytes ?? Infinity;
    this.#idleMs = options.idleMs ?? RECENT_IDLE_MS;
    this.#now = options.now ?? Date.now;
    this.stampOf = batchLoader<string, ConverseStamp>(async (ids) => {
      const docs = await models.converses
        .find({ _id: { $in: ids } }, { lastSeq: 1, rev: 1 })
        .lean<Pick<ConverseDoc, '_id' | 'lastSeq' | 'rev'>[]>();
      const byId = new Map(docs.map((d) => [d._id.toHexString(), { lastSeq: d.lastSeq, rev: d.rev ?? 0 }]));
      return ids.map((id) => byId.get(id) ?? { lastSeq: 0, rev: 0 });
    });
  }

  /**
   * The messages of a converse in `range` as of its stamp (read now unless
   * the caller has it), ascending; undefined when memory cannot answer (kept
   * nothing, the range reaches below the kept tail, or the tail could not be
   * taken): the caller reads the database.
   */
  async read(converseId: string, range: SeqRange, known?: ConverseStamp): Promise<MessageDoc[] | undefined> {
    // Keeping nothing, a stamp is worth reading only for a caller that has one anyway.
    if (this.#capacity === 0 && !known) return undefined;
    const stamp = known ?? (await this.stampOf(converseId));
    const { before, after, limit } = range;
    const top = Math.min(stamp.lastSeq, before === undefined ? Infinity : before - 1);
    const floor = (after ?? 0) + 1;
    if (top < floor || limit === 0) return [];
    if (this.#capacity === 0) return undefined;
    const [from, to] =
      after === undefined ? [Math.max(floor, top - limit + 1), top] : [floor, Math.min(top, after + limit)];
    const tail = await this.#tailAt(converseId, stamp);
    if (!tail) return undefined;
    const first = tail.docs[0]?.seq ?? tail.lastSeq + 1;
    // A tail that starts at seq 1 holds the whole converse.
    if (from < first && first > 1) return undefined;
    return tail.docs.slice(Math.max(0, from - first), to - first + 1);
  }

  /** This node wrote these messages of one converse (one batch: ascending, without gaps). */
  appended(converseId: string, docs: readonly MessageDoc[]): void {
    const first = docs[0];
    if (!first) return;
    this.#dropIdle();
    const tail = this.#tails.get(converseId);
    if (tail && tail.lastSeq === first.seq - 1) {
      for (const doc of docs) this.#bytes += this.#add(tail, doc);
      this.#size += docs.length;
      tail.lastSeq = docs.at(-1)!.seq;
      this.#use(converseId, tail);
      this.#trim(converseId, tail);
    } else if (tail) {
      // Another node wrote in between: this tail is behind for good.
      this.#drop(converseId);
    } else if (first.seq === 1 && this.#capacity > 0) {
      // A converse's first messages: the whole converse, no read needed.
      const fresh: Tail = { lastSeq: docs.at(-1)!.seq, rev: 0, docs: [], bytes: 0, usedAt: this.#now() };
      for (const doc of docs) this.#add(fresh, doc);
      this.#put(converseId, fresh, false);
    }
  }

  /** Forgets a converse (a batch that could not be written whole, a change this node cannot place). */
  forget(converseId: string): void {
    this.#drop(converseId);
  }

  /**
   * A stored message changed (edit, deletion, reaction): moves the
   * converse's `rev`, which every node's next read of it checks, and puts
   * the new version into this node's tail. Call after the message's write.
   */
  async changed(doc: MessageDoc): Promise<void> {
    const converseId = doc.converseId.toHexString();
    const counter = await this.#models.converses.collection.findOneAndUpdate(
      { _id: new Types.ObjectId(converseId) },
      { $inc: { rev: 1 } },
      { returnDocument: 'after', projection: { rev: 1 } },
    );
    const tail = this.#tails.get(converseId);
    if (!tail) return;
    const rev = counter?.rev as number | undefined;
    // Another change came between (here or elsewhere): which version is newest is not known here.
    if (rev === undefined || tail.rev !== rev - 1) return this.#drop(converseId);
    tail.rev = rev;
    const first = tail.docs[0]?.seq;
    if (first === undefined || doc.seq < first || doc.seq > tail.lastSeq) return;
    // Two changes of one message may bump rev in the other order than they wrote: the newer version stays.
    const kept = tail.docs[doc.seq - first]!;
    if ((doc.v ?? 0) >= (kept.v ?? 0)) {
      const delta = estimatedBytes(doc) - estimatedBytes(kept);
      tail.docs[doc.seq - first] = withOwnObjectIds(doc);
      tail.bytes += delta;
      this.#bytes += delta;
      this.#trim(converseId, tail);
    }
  }

  /** The tail at exactly this stamp: the kept one, or one read now (shared by concurrent misses). */
  #tailAt(converseId: string, stamp: ConverseStamp): Promise<Tail | undefined> {
    this.#dropIdle();
    const kept = this.#tails.get(converseId);
    if (kept && sameStamp(kept, stamp)) {
      this.#use(converseId, kept);
      return Promise.resolve(kept);
    }
    const key = `${converseId}:${stamp.lastSeq}:${stamp.rev}`;
    let filling = this.#filling.get(key);
    if (!filling) {
      filling = this.#fill(converseId, stamp).finally(() => this.#filling.delete(key));
      this.#filling.set(key, filling);
    }
    return filling;
  }

  async #fill(converseId: string, stamp: ConverseStamp): Promise<Tail | undefined> {
    const docs = await this.#models.messages
      .find({ converseId, seq: { $lte: stamp.lastSeq } })
      .sort({ seq: -1 })
      .limit(RECENT_PER_CONVERSE)
      .lean<MessageDoc[]>();
    docs.reverse();
    // Every seq up to the stamp, or nothing: a batch on its way must not be kept as missing.
    const complete = docs.at(-1)?.seq === stamp.lastSeq && docs.every((d, i) => d.seq === docs[0]!.seq + i);
    if (!complete) return undefined;
    const tail: Tail = { ...stamp, docs: [], bytes: 0, usedAt: this.#now() };
    for (const doc of docs) this.#add(tail, doc);
    this.#put(converseId, tail, true);
    return tail;
  }

  /** Appends a message to a tail; its estimated bytes. The totals count it when the tail is (or gets) kept. */
  #add(tail: Tail, doc: MessageDoc): number {
    const bytes = estimatedBytes(doc);
    tail.docs.push(withOwnObjectIds(doc));
    tail.bytes += bytes;
    return bytes;
  }

  #put(converseId: string, tail: Tail, read: boolean): void {
    const kept = this.#tails.get(converseId);
    // A newer tail (this node wrote while the read was on its way) stays.
    if (read && kept && (kept.lastSeq > tail.lastSeq || kept.rev > tail.rev)) return;
    this.#drop(converseId);
    this.#tails.set(converseId, tail);
    this.#size += tail.docs.length;
    this.#bytes += tail.bytes;
    this.#trim(converseId, tail);
  }

  /** Keeps a tail to RECENT_PER_CONVERSE, and everything within the count and bytes, least recently used first. */
  #trim(converseId: string, tail: Tail): void {
    const extra = tail.docs.length - RECENT_PER_CONVERSE;
    if (extra > 0) {
      const gone = tail.docs.splice(0, extra).reduce((sum, doc) => sum + estimatedBytes(doc), 0);
      tail.bytes -= gone;
      this.#bytes -= gone;
      this.#size -= extra;
    }
    const over = () => this.#size > this.#capacity || this.#bytes > this.#maxBytes;
    for (const [id] of this.#tails) {
      if (!over()) break;
      if (id !== converseId) this.#drop(id);
    }
    if (over()) this.#drop(converseId);
  }

  /** Drops the converses nobody used for RECENT_IDLE_MS (the least recently used come first). */
  #dropIdle(): void {
    const idleSince = this.#now() - this.#idleMs;
    for (const [id, tail] of this.#tails) {
      if (tail.usedAt >= idleSince) break;
      this.#drop(id);
    }
  }

  #use(converseId: string, tail: Tail): void {
    tail.usedAt = this.#now();
    this.#tails.delete(converseId);
    this.#tails.set(converseId, tail);
  }

  #drop(converseId: string): void {
    const tail = this.#tails.get(converseId);
    if (!tail) return;
    this.#size -= tail.docs.length;
    this.#bytes -= tail.bytes;
    this.#tails.delete(converseId);
  }

  /** What is kept now: converses, messages and their estimated bytes (metrics and tests). */
  get kept(): { converses: number; messages: number; bytes: number } {
    return { converses: this.#tails.size, messages: this.#size, bytes: this.#bytes };
  }
}
