import { batchLoader } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatModels, ConverseDoc, MessageDoc } from './models.ts';

/** Most messages kept per converse: all a reconnect's sync may answer, and a few history pages. */
export const RECENT_PER_CONVERSE = 200;

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
  /** Fills under way, by converse and stamp: concurrent misses share one read. */
  readonly #filling = new Map<string, Promise<Tail | undefined>>();

  /** The stamps of the converses asked for in this turn, with one query. */
  readonly stampOf: (converseId: string) => Promise<ConverseStamp>;

  constructor(models: ChatModels, capacity: number) {
    this.#models = models;
    this.#capacity = capacity;
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
    const tail = this.#tails.get(converseId);
    if (tail && tail.lastSeq === first.seq - 1) {
      tail.docs.push(...docs);
      tail.lastSeq = docs.at(-1)!.seq;
      this.#size += docs.length;
      this.#trim(converseId, tail);
      this.#use(converseId, tail);
    } else if (tail) {
      // Another node wrote in between: this tail is behind for good.
      this.#drop(converseId);
    } else if (first.seq === 1 && this.#capacity > 0) {
      // A converse's first messages: the whole converse, no read needed.
      this.#put(converseId, { lastSeq: docs.at(-1)!.seq, rev: 0, docs: [...docs] });
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
    if ((doc.v ?? 0) >= (kept.v ?? 0)) tail.docs[doc.seq - first] = doc;
  }

  /** The tail at exactly this stamp: the kept one, or one read now (shared by concurrent misses). */
  #tailAt(converseId: string, stamp: ConverseStamp): Promise<Tail | undefined> {
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
    const tail = { ...stamp, docs };
    this.#put(converseId, tail);
    return tail;
  }

  #put(converseId: string, tail: Tail): void {
    const kept = this.#tails.get(converseId);
    // A newer tail (this node wrote while the read was on its way) stays.
    if (kept && (kept.lastSeq > tail.lastSeq || kept.rev > tail.rev)) return;
    this.#drop(converseId);
    this.#tails.set(converseId, tail);
    this.#size += tail.docs.length;
    this.#trim(converseId, tail);
  }

  #trim(converseId: string, tail: Tail): void {
    const extra = tail.docs.length - RECENT_PER_CONVERSE;
    if (extra > 0) {
      tail.docs.splice(0, extra);
      this.#size -= extra;
    }
    for (const [id] of this.#tails) {
      if (this.#size <= this.#capacity) break;
      if (id !== converseId) this.#drop(id);
    }
    if (this.#size > this.#capacity) this.#drop(converseId);
  }

  #use(converseId: string, tail: Tail): void {
    this.#tails.delete(converseId);
    this.#tails.set(converseId, tail);
  }

  #drop(converseId: string): void {
    const tail = this.#tails.get(converseId);
    if (!tail) return;
    this.#size -= tail.docs.length;
    this.#tails.delete(converseId);
  }
}
