import type { Logger } from '@im/sdk';
import { Types } from 'mongoose';
import type { ChatModels } from '../models.ts';
import { tombstone } from './tombstone.ts';

/** Converses whose latest write came this long before the newest one are not looked at. */
const RECENT_MS = 10 * 60_000;
/** How far back from a converse's counter the check looks (a lost batch is at most CHAT_WRITE_MAX_BATCH). */
const TAIL_SEQS = 10_000;
/** Tombstones whose author is not known: no user has this id. */
const NOBODY = new Types.ObjectId('000000000000000000000000');

/**
 * A chat node that died between reserving a batch's sequence numbers (the
 * counter's `$inc`) and writing its messages leaves those numbers with no
 * message: a gap in the converse that every reader would wonder about. This
 * fills such gaps with tombstones, as the writer does for a failed insert.
 *
 * Only converses whose last reservation came before `reservedBefore` are
 * looked at (a batch of a live node may still be on its way with later
 * ones), and only those written to `since` then, or else in the ten minutes
 * before the last write: a crash interrupts the newest batches.
 *
 * `tail`: one writer (a single instance), so a lost batch is the end of its
 * converses; walks down from each counter with exact (converseId, seq)
 * lookups, which the unique index answers on any server, to the first seq
 * that has its message. `range`: several writers, so a lost batch may sit
 * below later ones; reads the seqs at each converse's tail with one range
 * query (a scan on the dev database, indexed on MongoDB).
 */
export async function fillSpentSeqs(
  models: ChatModels,
  window: { reservedBefore: Date; since?: Date | undefined },
  logger: Logger,
  maxBatch: number,
  mode: 'tail' | 'range',
): Promise<number> {
  const { converses, messages } = models;
  const { reservedBefore } = window;
  let since = window.since;
  if (!since) {
    const newest = await converses.collection.findOne(
      { lastMessageAt: { $lt: reservedBefore } },
      { sort: { lastMessageAt: -1 }, projection: { lastMessageAt: 1 } },
    );
    const newestAt = newest?.lastMessageAt as Date | undefined;
    if (!newestAt) return 0;
    since = new Date(newestAt.getTime() - RECENT_MS);
  }
  const recent = await converses.collection
    .find({ lastMessageAt: { $gte: since, $lt: reservedBefore } }, { projection: { lastSeq: 1, lastMessageAt: 1 } })
    .toArray();
  const tail = Math.max(TAIL_SEQS, maxBatch * 2);
  let filled = 0;
  for (const converse of recent) {
    const lastSeq = converse.lastSeq as number;
    const missing =
      mode === 'tail'
        ? await missingAtTail(messages, converse._id, lastSeq, maxBatch)
        : await missingInRange(messages, converse._id, lastSeq, tail);
    if (missing.length === 0) continue;
    const tombstones = missing.map((seq) =>
      tombstone({ converseId: converse._id, seq, authorId: NOBODY, createdAt: converse.lastMessageAt as Date }),
    );
    // Unordered, duplicates ignored: a message written meanwhile keeps its seq (the unique index decides).
    const result = await messages.collection
      .insertMany(tombstones, { ordered: false })
      .then((r) => r.insertedCount)
      .catch((err: { insertedCount?: number; result?: { insertedCount?: number } }) => {
        return err.result?.insertedCount ?? err.insertedCount ?? 0;
      });
    filled += result;
  }
  if (filled > 0) logger.warn({ filled }, 'filled sequence numbers that a stopped node had reserved but not written');
  return filled;
}

type Messages = ChatModels['messages'];

/** Seqs from `lastSeq` down that have no message, up to the first that has one (at most `limit`). */
async function missingAtTail(messages: Messages, converseId: Types.ObjectId, lastSeq: number, limit: number) {
  const missing: number[] = [];
  for (let seq = lastSeq; seq >= 1 && missing.length < limit; seq -= 1) {
    if (await messages.collection.findOne({ converseId, seq }, { projection: { _id: 1 } })) break;
    missing.push(seq);
  }
  return missing;
}

/** Seqs of the last `tail` below and at `lastSeq` that have no message. */
async function missingInRange(messages: Messages, converseId: Types.ObjectId, lastSeq: number, tail: number) {
  const from = Math.max(1, lastSeq - tail + 1);
  // Nearly always whole: a count (answered from the unique index on MongoDB) before reading any seq.
  const count = await messages.collection.countDocuments({ converseId, seq: { $gte: from, $lte: lastSeq } });
  if (count === lastSeq - from + 1) return [];
  const held = await messages.collection
    .find({ converseId, seq: { $gte: from, $lte: lastSeq } }, { projection: { seq: 1 } })
    .toArray();
  if (held.length === lastSeq - from + 1) return [];
  const present = new Set(held.map((m) => m.seq as number));
  const missing: number[] = [];
  for (let seq = from; seq <= lastSeq; seq += 1) if (!present.has(seq)) missing.push(seq);
  return missing;
}
