import { isDuplicateKeyError, type Logger } from '@im/sdk';
import type { AnyBulkWriteOperation, Model, Types } from 'mongoose';
import type { ChatModels, MessageDoc, ReadDoc } from '../models.ts';

/** One mention of a user: the seq of the message in its converse. */
export interface Mention {
  userId: Types.ObjectId;
  converseId: Types.ObjectId;
  seq: number;
}

/** The mentions a message makes (none once deleted). */
export const mentionsOf = (doc: Pick<MessageDoc, 'mentions' | 'converseId' | 'seq' | 'deleted'>): Mention[] =>
  doc.deleted ? [] : doc.mentions.map((userId) => ({ userId, converseId: doc.converseId, seq: doc.seq }));

type Op = AnyBulkWriteOperation<ReadDoc>;

/**
 * Runs read-position updates keyed by (userId, converseId), the unique
 * index: an exact lookup on every server. Two upserts of one new key at
 * once make one of them a duplicate-key error; that one is run again and
 * then finds the document.
 */
async function writeKeyed(reads: Model<ReadDoc>, ops: Op[]): Promise<void> {
  if (ops.length === 0) return;
  try {
    await reads.bulkWrite(ops, { ordered: false });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: Array<{ index: number; code?: number; err?: { code?: number } }> })
      .writeErrors;
    if (!writeErrors?.every((e) => isDuplicateKeyError(e.err ?? e))) throw err;
    await reads.bulkWrite(
      writeErrors.map((e) => ops[e.index]!),
      { ordered: false },
    );
  }
}

const keep = ({ userId, converseId, seq }: Mention): Op => ({
  updateOne: {
    filter: { userId, converseId },
    update: { $addToSet: { mentionSeqs: seq }, $setOnInsert: { readSeq: 0 } },
    upsert: true,
  },
});

/**
 * Most mention seqs one read position keeps: the newest. A reader who never
 * reads a converse where someone mentions them at the send limit would
 * otherwise grow one document without bound; past this the badge says
 * "1,000 unread mentions", which says enough.
 */
export const MAX_KEPT_MENTIONS = 1000;

/** Trims a read position holding more than MAX_KEPT_MENTIONS seqs to the newest (matches nothing otherwise). */
const trim = ({ userId, converseId }: Pick<Mention, 'userId' | 'converseId'>): Op => ({
  updateOne: {
    filter: { userId, converseId, [`mentionSeqs.${MAX_KEPT_MENTIONS}`]: { $exists: true } },
    update: { $push: { mentionSeqs: { $each: [], $sort: 1, $slice: -MAX_KEPT_MENTIONS } } },
  },
});

/**
 * Keeps mentions, then trims each read position they touched (in the same
 * batch: a trim that runs before its keep leaves one seq too many until the
 * next).
 */
const keepAll = (mentions: readonly Mention[]): Op[] => {
  const touched = new Map(mentions.map((m) => [`${m.userId.toHexString()}:${m.converseId.toHexString()}`, m]));
  return [...mentions.map(keep), ...[...touched.values()].map(trim)];
};

const takeBack = ({ userId, converseId, seq }: Mention): Op => ({
  updateOne: { filter: { userId, converseId }, update: { $pull: { mentionSeqs: { $in: [seq] } } } },
});

/** Adds mentions to their users' kept seqs (idempotent: a seq is kept once; the newest MAX_KEPT_MENTIONS stay). */
export const recordMentions = (reads: Model<ReadDoc>, mentions: readonly Mention[]): Promise<void> =>
  writeKeyed(reads, keepAll(mentions));

/** Takes mentions back (a deletion). */
export const unrecordMentions = (reads: Model<ReadDoc>, mentions: readonly Mention[]): Promise<void> =>
  writeKeyed(reads, mentions.map(takeBack));

/** An edit: takes back the mentions it dropped and keeps the ones it added, in one write. */
export function rerecordMentions(reads: Model<ReadDoc>, before: MessageDoc, after: MessageDoc): Promise<void> {
  const ids = (doc: MessageDoc) => new Set(mentionsOf(doc).map((m) => m.userId.toHexString()));
  const [was, is] = [ids(before), ids(after)];
  return writeKeyed(reads, [
    ...mentionsOf(before)
      .filter((m) => !is.has(m.userId.toHexString()))
      .map(takeBack),
    ...keepAll(mentionsOf(after).filter((m) => !was.has(m.userId.toHexString()))),
  ]);
}

/**
 * The unread mentions among a read position's kept seqs, and the unread
 * mentions of many (`many`, see mention-many.ts): a message naming the
 * reader and also writing @all counts once.
 */
export const unreadMentions = (
  read: Pick<ReadDoc, 'readSeq' | 'mentionSeqs'> | undefined,
  many: readonly number[] = [],
): number => new Set([...(read?.mentionSeqs ?? []), ...many].filter((seq) => seq > (read?.readSeq ?? 0))).size;

const BACKFILL = 'mention-seqs';

/**
 * Databases written before mentions were kept: keeps the unread mentions
 * of every message once (one pass over the messages that mention someone),
 * then marks it done. Several nodes starting at once may both run it;
 * keeping a seq is idempotent.
 */
export async function backfillMentionSeqs(models: ChatModels, logger: Logger): Promise<void> {
  const { migrations, messages, reads } = models;
  if (await migrations.exists({ _id: BACKFILL })) return;
  const started = Date.now();
  const rows = await messages.aggregate<{ _id: { u: Types.ObjectId; c: Types.ObjectId }; seqs: number[] }>([
    { $match: { 'mentions.0': { $exists: true }, deleted: { $ne: true } } },
    { $unwind: '$mentions' },
    { $group: { _id: { u: '$mentions', c: '$converseId' }, seqs: { $push: '$seq' } } },
  ]);
  const positions = rows.length
    ? await reads.find({ userId: { $in: [...new Set(rows.map((r) => r._id.u.toHexString()))] } }).lean<ReadDoc[]>()
    : [];
  const readSeq = new Map(positions.map((r) => [`${r.userId.toHexString()}:${r.converseId.toHexString()}`, r.readSeq]));
  const unread = rows.flatMap(({ _id: { u, c }, seqs }) => {
    const read = readSeq.get(`${u.toHexString()}:${c.toHexString()}`) ?? 0;
    return seqs.filter((seq) => seq > read).map((seq) => ({ userId: u, converseId: c, seq }));
  });
  for (let i = 0; i < unread.length; i += 1000) await recordMentions(reads, unread.slice(i, i + 1000));
  await migrations.updateOne({ _id: BACKFILL }, { $set: { doneAt: new Date() } }, { upsert: true });
  logger.info({ mentions: unread.length, ms: Date.now() - started }, 'kept the unread mentions of earlier messages');
}
