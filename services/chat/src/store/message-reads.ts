import { batchLoader } from '@im/sdk';
import { Types, type FilterQuery, type Model, type ProjectionType } from 'mongoose';
import type { MessageDoc } from '../models.ts';
import { pageAround } from './around.ts';
import type { ConverseStamp, RecentMessages, SeqRange } from './recent-messages.ts';

/** A reader's read position in one converse. */
export interface Position {
  converseId: string;
  readSeq: number;
}

/** Most flagged messages one unread summary reads (a badge past it says enough). */
const MANY_COUNT_MAX = 5000;

/** Searches and mention look-ups give up past this, rather than hold a database thread. */
const SCAN_MAX_MS = 5000;

/**
 * Every read of stored messages. Pages of a converse go through the recent
 * tail first (see recent-messages.ts); the rest are by id or by one of the
 * sparse indexes the model declares.
 */
export class MessageReads {
  readonly #messages: Model<MessageDoc>;
  readonly #recent: RecentMessages;

  constructor(messages: Model<MessageDoc>, recent: RecentMessages) {
    this.#messages = messages;
    this.#recent = recent;
  }

  /** One message (deleted ones too: a tombstone keeps its place), or null. */
  byId(id: string | Types.ObjectId, projection?: ProjectionType<MessageDoc>): Promise<MessageDoc | null> {
    return this.#messages.findById(id, projection).lean<MessageDoc>();
  }

  /** These messages, in no particular order; `live`: deleted ones left out. */
  byIds(
    ids: readonly Types.ObjectId[],
    { live = false, projection }: { live?: boolean; projection?: ProjectionType<MessageDoc> } = {},
  ): Promise<MessageDoc[]> {
    return this.#messages
      .find({ _id: { $in: ids }, ...(live ? { deleted: { $ne: true } } : {}) }, projection)
      .lean<MessageDoc[]>();
  }

  /** Whether the converse holds this message (`live`: and it is not deleted). */
  async existsIn(converseId: string, id: string, { live = false } = {}): Promise<boolean> {
    return (await this.#messages.exists({ _id: id, converseId, ...(live ? { deleted: { $ne: true } } : {}) })) !== null;
  }

  /** The converse of the message an (author, clientMsgId) key already stored, if any. */
  async converseOfDedupeKey(dedupeKey: string): Promise<string | undefined> {
    const earlier = await this.#messages.findOne({ dedupeKey }, { converseId: 1 }).lean<MessageDoc>();
    return earlier?.converseId.toHexString();
  }

  /** A live message of this converse that may be a thread's root (with what a reply needs of it). */
  liveIn(converseId: string, id: string): Promise<MessageDoc | null> {
    return this.#messages
      .findOne({ _id: id, converseId, deleted: { $ne: true } }, { seq: 1, authorId: 1, threadId: 1 })
      .lean<MessageDoc>();
  }

  /**
   * A page of a converse in seq order: the newest `limit`, those just below
   * `before`, or just above `after`. From the recent tail when it holds it.
   */
  async page(converseId: string, range: SeqRange): Promise<MessageDoc[]> {
    const kept = await this.#recent.read(converseId, range);
    if (kept) return kept;
    const { before, after, limit } = range;
    const ascending = after !== undefined;
    const seq = {
      ...(before !== undefined ? { $lt: before } : {}),
      ...(after !== undefined ? { $gt: after } : {}),
    };
    const docs = await this.#messages
      .find({ converseId, ...(before !== undefined || ascending ? { seq } : {}) })
      .sort({ seq: ascending ? 1 : -1 })
      .limit(limit)
      .lean<MessageDoc[]>();
    if (!ascending) docs.reverse();
    return docs;
  }

  /** The page centred on `around` (a page in the middle is rarely in the recent tail: read directly). */
  around(converseId: string, around: number, limit: number): Promise<MessageDoc[]> {
    return pageAround(this.#messages, converseId, around, limit);
  }

  /** Live messages only, newest `limit` or just below `before`, ascending (public pages and feeds). */
  async livePage(converseId: string, before: number | undefined, limit: number): Promise<MessageDoc[]> {
    const docs = await this.#messages
      .find({ converseId, deleted: { $ne: true }, ...(before !== undefined ? { seq: { $lt: before } } : {}) })
      .sort({ seq: -1 })
      .limit(limit)
      .lean<MessageDoc[]>();
    return docs.reverse();
  }

  /** Where a converse stands (batched over the callers of a turn). */
  stampOf(converseId: string): Promise<ConverseStamp> {
    return this.#recent.stampOf(converseId);
  }

  /**
   * Up to `limit` messages above `lastSeq` as of `stamp`, ascending: from the
   * recent tail, else from the database, one read shared by every caller
   * asking the same in this turn (a reconnect storm asks it thousands of times).
   */
  async since(converseId: string, lastSeq: number, limit: number, stamp: ConverseStamp): Promise<MessageDoc[]> {
    return (
      (await this.#recent.read(converseId, { after: lastSeq, limit }, stamp)) ??
      (await this.#storedSince({ converseId, lastSeq, limit }))
    );
  }

  readonly #storedSince = batchLoader<{ converseId: string; lastSeq: number; limit: number }, MessageDoc[]>(
    (keys) =>
      Promise.all(
        keys.map(({ converseId, lastSeq, limit }) =>
          this.#messages
            .find({ converseId, seq: { $gt: lastSeq } })
            .sort({ seq: 1 })
            .limit(limit)
            .lean<MessageDoc[]>(),
        ),
      ),
    { keyOf: (k) => `${k.converseId}:${k.lastSeq}:${k.limit}` },
  );

  /** Live messages of these converses that match the search's filter, newest first. */
  search(converseIds: readonly string[], filter: FilterQuery<MessageDoc>, limit: number): Promise<MessageDoc[]> {
    return this.#messages
      .find({ ...filter, converseId: { $in: converseIds }, deleted: { $ne: true } })
      .sort({ _id: -1 })
      .limit(limit)
      .maxTimeMS(SCAN_MAX_MS)
      .lean<MessageDoc[]>();
  }

  /** A converse's pinned messages, newest pin first (one query on the sparse index of pins). */
  pinned(converseId: string, max: number): Promise<MessageDoc[]> {
    return this.#messages
      .find({ 'pinned.converseId': converseId })
      .sort({ 'pinned.at': -1 })
      .limit(max)
      .lean<MessageDoc[]>();
  }

  /** A thread's replies by seq, above `after` (one query on the sparse index of replies). */
  replies(rootId: Types.ObjectId, after: number | undefined, limit: number): Promise<MessageDoc[]> {
    return this.#messages
      .find({ threadId: rootId, ...(after !== undefined ? { seq: { $gt: after } } : {}) })
      .sort({ seq: 1 })
      .limit(limit)
      .lean<MessageDoc[]>();
  }

  /** Live replies above each read position, by root, in one aggregation. */
  async unreadReplies(positions: ReadonlyArray<{ rootId: Types.ObjectId; readSeq: number }>) {
    if (positions.length === 0) return new Map<string, number>();
    const rows = await this.#messages.aggregate<{ _id: Types.ObjectId; n: number }>([
      {
        $match: {
          $or: positions.map((f) => ({ threadId: f.rootId, seq: { $gt: f.readSeq } })),
          deleted: { $ne: true },
        },
      },
      { $group: { _id: '$threadId', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id.toHexString(), r.n]));
  }

  /** The seqs of live messages above `readSeq` that name the user (not their own), newest `max`, ascending. */
  async mentioningAbove(converseId: string, userId: string, readSeq: number, max: number): Promise<number[]> {
    const me = new Types.ObjectId(userId);
    const mentioned = await this.#messages
      .find(
        { converseId, seq: { $gt: readSeq }, mentions: me, deleted: { $ne: true }, authorId: { $ne: me } },
        { seq: 1 },
      )
      .sort({ seq: -1 })
      .limit(max)
      .maxTimeMS(SCAN_MAX_MS)
      .lean<Array<Pick<MessageDoc, 'seq'>>>();
    return mentioned.map((m) => m.seq).reverse();
  }

  /**
   * The seqs of unread messages that mention the reader as one of many, per
   * converse: one query over the sparse index, whatever the number of
   * converses. The reader's own messages do not mention them.
   */
  async unreadManySeqs(userId: string, positions: readonly Position[]): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (positions.length === 0) return out;
    const me = new Types.ObjectId(userId);
    const docs = await this.#messages
      .find(
        {
          $or: positions.map((p) => ({
            mentionsMany: new Types.ObjectId(p.converseId),
            seq: { $gt: p.readSeq },
          })),
          $and: [
            { $or: [{ mentionsAll: true }, { mentionsHere: true, hereIds: { $exists: false } }, { hereIds: me }] },
          ],
          deleted: { $ne: true },
          authorId: { $ne: me },
        },
        { converseId: 1, seq: 1 },
      )
      .limit(MANY_COUNT_MAX)
      .lean<Array<Pick<MessageDoc, 'converseId' | 'seq'>>>();
    for (const d of docs) {
      const key = d.converseId.toHexString();
      (out.get(key) ?? out.set(key, []).get(key)!).push(d.seq);
    }
    return out;
  }
}
