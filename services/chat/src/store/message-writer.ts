import { AsyncLocalStorage } from 'node:async_hooks';
import { isDuplicateKeyError } from '@im/sdk';
import type { Logger } from '@im/sdk';
import { Types } from 'mongoose';
import { mentionsOf, recordMentions } from './mention-seqs.ts';
import type { ChatModels, MessageDoc } from '../models.ts';
import type { RecentMessages } from './recent-messages.ts';
import { tombstone } from './tombstone.ts';

/** A message to store: everything but its id and sequence number. */
export type MessageDraft = Omit<MessageDoc, '_id' | 'seq' | 'createdAt' | 'reactionCounts'>;

/** The stored message, and whether this send stored it (false: an earlier send with the same clientMsgId did). */
export interface WriteResult {
  doc: MessageDoc;
  created: boolean;
}

interface Pending {
  draft: MessageDraft;
  resolve: (result: WriteResult) => void;
  reject: (err: unknown) => void;
  /** Runs work in the async context of the send (only with `keepSendContext`). */
  inSendContext?: <R>(work: () => R) => R;
}

export interface WriterOptions {
  /** How long the first send of a batch waits for company; 0: only for the sends of the same event-loop turn. */
  windowMs: number;
  maxBatch: number;
  /** Told the size of every batch written (metrics). */
  onBatch?: (written: number) => void;
  /**
   * A batch is written in the async context of its first send, not of
   * whatever scheduled the flush (with tracing on: its writes show in that
   * send's trace, not in an earlier one's).
   */
  keepSendContext?: boolean;
}

/**
 * Group commit for messages. Sends queue up; one flush at a time takes the
 * queue, reserves each converse's sequence numbers with a single atomic
 * `$inc` on its counter (a MongoDB document: durable and shared by every
 * process, so numbers never repeat), writes all messages with one
 * `insertMany`, and only then resolves each send. While a flush runs the next
 * batch fills, so the batch grows with the load and an idle send waits at
 * most `windowMs` (by default none: it goes at the end of its event-loop turn).
 */
export class MessageWriter {
  readonly #models: ChatModels;
  readonly #options: WriterOptions;
  readonly #logger: Logger;
  readonly #recent: RecentMessages;
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  #flushing: Promise<void> | undefined;
  /** Authors' read positions still being written (awaited by drain). */
  #acking: Promise<void> = Promise.resolve();

  constructor(models: ChatModels, options: WriterOptions, logger: Logger, recent: RecentMessages) {
    this.#models = models;
    this.#options = options;
    this.#logger = logger;
    this.#recent = recent;
  }

  write(draft: MessageDraft): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({
        draft,
        resolve,
        reject,
        ...(this.#options.keepSendContext ? { inSendContext: AsyncLocalStorage.snapshot() } : {}),
      });
      this.#schedule();
    });
  }

  /** Waits until everything queued is written (used at shutdown). */
  async drain(): Promise<void> {
    while (this.#queue.length > 0 || this.#flushing) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      clearImmediate(this.#immediate);
      this.#immediate = undefined;
      await (this.#flushing ?? this.#flush());
    }
    await this.#acking;
  }

  #schedule(): void {
    if (this.#flushing || this.#timer || this.#immediate) return;
    if (this.#queue.length >= this.#options.maxBatch) {
      void this.#flush();
      return;
    }
    if (this.#options.windowMs === 0) {
      // No wait on an idle writer: the sends of this event-loop turn go together at its end
      // (a timer would add a millisecond or more, and much more on a busy machine).
      this.#immediate = setImmediate(() => {
        this.#immediate = undefined;
        void this.#flush();
      });
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#flush();
    }, this.#options.windowMs);
  }

  #flush(): Promise<void> {
    const batch = this.#queue.splice(0, this.#options.maxBatch);
    const inContext = batch[0]?.inSendContext;
    this.#flushing = (inContext ? inContext(() => this.#writeBatch(batch)) : this.#writeBatch(batch))
      .catch((err: unknown) => {
        for (const p of batch) p.reject(err);
      })
      .finally(() => {
        this.#flushing = undefined;
        if (this.#queue.length > 0) this.#schedule();
      });
    return this.#flushing;
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    if (batch.length === 0) return;
    const { messages, converses } = this.#models;

    // Idempotency: sends whose (author, clientMsgId) is already stored get the stored message.
    const keys = [...new Set(batch.flatMap((p) => (p.draft.dedupeKey ? [p.draft.dedupeKey] : [])))];
    const existing = new Map<string, MessageDoc>();
    if (keys.length > 0) {
      for (const doc of await messages.find({ dedupeKey: { $in: keys } }).lean<MessageDoc[]>())
        existing.set(doc.dedupeKey!, doc);
    }
    const fresh: Pending[] = [];
    const followers = new Map<string, Pending[]>();
    for (const p of batch) {
      const key = p.draft.dedupeKey;
      const stored = key ? existing.get(key) : undefined;
      if (stored) p.resolve({ doc: stored, created: false });
      else if (key && followers.has(key)) followers.get(key)!.push(p);
      else {
        if (key) followers.set(key, []);
        fresh.push(p);
      }
    }
    if (fresh.length === 0) return;

    // One counter update per converse in the batch.
    const perConverse = new Map<string, Pending[]>();
    for (const p of fresh) {
      const id = p.draft.converseId.toHexString();
      (perConverse.get(id) ?? perConverse.set(id, []).get(id)!).push(p);
    }
    const now = new Date();
    const docs: MessageDoc[] = [];
    const owners: Pending[] = [];
    await Promise.all(
      [...perConverse].map(async ([converseId, pendings]) => {
        // The raw driver: this runs once per converse per batch, mongoose's casting adds nothing here.
        // lastMessageAt rides along for free ($max: batches from several nodes may land in any order).
        const counter = await converses.collection.findOneAndUpdate(
          { _id: new Types.ObjectId(converseId) },
          { $inc: { lastSeq: pendings.length }, $max: { lastMessageAt: now } },
          { upsert: true, returnDocument: 'after', projection: { lastSeq: 1 } },
        );
        const first = (counter!.lastSeq as number) - pendings.length + 1;
        pendings.forEach((p, i) => {
          docs.push({ ...p.draft, _id: new Types.ObjectId(), seq: first + i, createdAt: now, reactionCounts: {} });
          owners.push(p);
        });
      }),
    );

    const failed = await this.#insert(docs);
    this.#options.onBatch?.(docs.length - failed.size);
    const written = docs.filter((_, i) => !failed.has(i));
    // Kept before the sends are answered: a mentioned user's unread summary counts the mention at once.
    await recordMentions(this.#models.reads, written.flatMap(mentionsOf)).catch((err: unknown) => {
      this.#logger.error({ err }, 'could not keep the mentions of written messages');
    });
    this.#keepTails(docs, failed);

    const tombstones: MessageDoc[] = [];
    for (const [i, doc] of docs.entries()) {
      const waiting = [owners[i]!, ...(doc.dedupeKey ? (followers.get(doc.dedupeKey) ?? []) : [])];
      const error = failed.get(i);
      if (error === undefined) {
        waiting.forEach((p, n) => p.resolve({ doc, created: n === 0 }));
        continue;
      }
      // The seq is spent: a tombstone keeps the converse's sequence free of gaps.
      tombstones.push(tombstone(doc));
      const stored =
        isDuplicateKeyError(error) && doc.dedupeKey
          ? await messages.findOne({ dedupeKey: doc.dedupeKey }).lean<MessageDoc>()
          : null;
      for (const p of waiting) {
        if (stored) p.resolve({ doc: stored, created: false });
        else p.reject(error);
      }
    }
    if (tombstones.length > 0) {
      await messages.collection
        .insertMany(tombstones.map(withoutUndefined), { ordered: false })
        .catch((err: unknown) => {
          this.#logger.error({ err, count: tombstones.length }, 'could not fill spent sequence numbers');
        });
    }
    // Read positions only move forward ($max), so they need not hold up the next batch.
    this.#acking = Promise.all([this.#acking, this.#ackAuthors(written)]).then(() => undefined);
  }

  /** Moves this node's kept tails past the batch; a converse with a seq not written (a tombstone follows) is forgotten. */
  #keepTails(docs: readonly MessageDoc[], failed: ReadonlyMap<number, unknown>): void {
    const byConverse = new Map<string, { docs: MessageDoc[]; whole: boolean }>();
    docs.forEach((doc, i) => {
      const id = doc.converseId.toHexString();
      const entry = byConverse.get(id) ?? byConverse.set(id, { docs: [], whole: true }).get(id)!;
      entry.docs.push(doc);
      if (failed.has(i)) entry.whole = false;
    });
    for (const [id, entry] of byConverse) {
      if (entry.whole) this.#recent.appended(id, entry.docs);
      else this.#recent.forget(id);
    }
  }

  /** insertMany, unordered; returns the indexes of the docs that were not written, with why. */
  async #insert(docs: MessageDoc[]): Promise<Map<number, unknown>> {
    const failed = new Map<number, unknown>();
    try {
      await this.#models.messages.collection.insertMany(docs.map(withoutUndefined), { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: Array<{ index?: number; err?: { index?: number; code?: number } }> })
        .writeErrors;
      if (!writeErrors) {
        docs.forEach((_, i) => failed.set(i, err));
      } else {
        for (const we of writeErrors) {
          const index = we.index ?? we.err?.index;
          if (index !== undefined) failed.set(index, we.err ?? we);
        }
      }
    }
    return failed;
  }

  /** An author has read what they wrote: move their read position (never backwards). */
  async #ackAuthors(written: MessageDoc[]): Promise<void> {
    const top = new Map<string, MessageDoc>();
    for (const doc of written) {
      const key = `${doc.converseId.toHexString()}:${doc.authorId.toHexString()}`;
      if ((top.get(key)?.seq ?? -1) < doc.seq) top.set(key, doc);
    }
    if (top.size === 0) return;
    await this.#models.reads.collection
      .bulkWrite(
        [...top.values()].map((doc) => ({
          updateOne: {
            filter: { userId: doc.authorId, converseId: doc.converseId },
            // $max: a read position only moves forward, whatever order writes land in.
            update: { $max: { readSeq: doc.seq } },
            upsert: true,
          },
        })),
        { ordered: false },
      )
      .catch((err: unknown) => {
        this.#logger.warn({ err }, "could not move authors' read positions");
      });
  }
}

/** Drops undefined fields so the stored document has no explicit nulls. */
const withoutUndefined = <T extends object>(doc: T): T =>
  Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined)) as T;
