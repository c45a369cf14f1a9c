import type { Model, Types } from 'mongoose';
import type { ConverseDoc, MessageDoc } from '../models.ts';

/** Pinned messages one converse may hold (the contract's limit). */
export const MAX_PINS = 50;

/** What a converse counts: its last seq, and the seq of its last message that mentions many. */
export type ConverseCount = Pick<ConverseDoc, '_id' | 'lastSeq' | 'lastManySeq'>;

/**
 * The counters a converse's document keeps beside its messages (its seq,
 * pins, mentions of many). The seq moves in the writer's batch and `rev` in
 * the recent tail; the rest move here.
 */
export class ConverseCounters {
  readonly #converses: Model<ConverseDoc>;

  constructor(converses: Model<ConverseDoc>) {
    this.#converses = converses;
  }

  /** The counters of one converse (zero for one never written to). */
  async of(converseId: string): Promise<{ lastSeq: number; lastManySeq: number }> {
    const doc = await this.#converses.findById(converseId, { lastSeq: 1, lastManySeq: 1 }).lean<ConverseCount>();
    return { lastSeq: doc?.lastSeq ?? 0, lastManySeq: doc?.lastManySeq ?? 0 };
  }

  /** The counters of these converses, in one query (those never written to are absent). */
  ofMany(converseIds: readonly string[]): Promise<ConverseCount[]> {
    if (converseIds.length === 0) return Promise.resolve([]);
    return this.#converses.find({ _id: { $in: converseIds } }, { lastSeq: 1, lastManySeq: 1 }).lean<ConverseCount[]>();
  }

  /**
   * Takes a pin slot by an update whose filter reads the count, so racing
   * pins cannot pass the limit. Every way a pin ends (unpin, a pin that lost
   * its message, deletion) gives its slot back once, decided by the write
   * that removed it.
   */
  async takePinSlot(converseId: Types.ObjectId): Promise<boolean> {
    const taken = await this.#converses.updateOne(
      { _id: converseId, $or: [{ pinCount: { $exists: false } }, { pinCount: { $lt: MAX_PINS } }] },
      { $inc: { pinCount: 1 } },
    );
    return taken.modifiedCount === 1;
  }

  /** Gives a converse's pin slot back (an unpin, or a pinned message deleted). */
  async releasePinSlot(converseId: Types.ObjectId): Promise<void> {
    await this.#converses.updateOne({ _id: converseId, pinCount: { $gt: 0 } }, { $inc: { pinCount: -1 } });
  }

  /**
   * Notes on the converse that it holds a message mentioning many (one small
   * write, only for such messages), so a reader whose position is past it
   * costs the unread summary no message read at all.
   */
  async noteManySeq(doc: MessageDoc): Promise<void> {
    if (doc.mentionsMany) await this.#converses.updateOne({ _id: doc.converseId }, { $max: { lastManySeq: doc.seq } });
  }
}
