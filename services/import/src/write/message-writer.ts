import { normalizeEmoji, UNICODE_EMOJI, unicodeForName, unicodeShortcodes, type ObjectStorage } from '@im/sdk';
import type mongoose from 'mongoose';
import type { Types } from 'mongoose';
import { mentionedKeys, replaceMentionTokens } from '../source/mention-token.ts';
import type { SkipCounter } from '../source/skip-counter.ts';
import type { SourceFile, SourceMessage } from '../source/types.ts';
import type { Person } from './accounts.ts';
import { insertNew, type ImportCollections } from './collections.ts';
import type { DerivedIds } from './ids.ts';
import type { Numbering } from './numbering.ts';
import type { Destination } from './plan.ts';
import { storeFile } from './stored-files.ts';

type Doc = mongoose.mongo.BSON.Document;

/** As many as a send may hold. */
const MAX_CONTENT = 4000;
const MAX_REACTION_KINDS = 20;
const MAX_PINS = 50;
const BATCH = 1000;
const FILES_AT_ONCE = 4;
/** Batches being written at once. */
const WRITES_AT_ONCE = 3;
const MANY = /(^|[^\w@])@(all|everyone|channel)\b/i;
const HERE = /(^|[^\w@])@here\b/i;

export interface WrittenCounts {
  messages: number;
  replies: number;
  reactions: number;
  files: number;
}

/** What the finishing step needs of the messages: per converse and per thread root. */
export interface ConverseTally {
  lastSeq: number;
  lastMessageAt: number;
  pins: number;
  lastManySeq: number;
}

export interface ThreadTally {
  converseId: Types.ObjectId;
  replyCount: number;
  lastReplyAt: number;
  participantIds: Map<string, Types.ObjectId>;
}

/**
 * The second pass: every message becomes its document, a thousand at a
 * time, with its reactions and files. Documents that are there already (an
 * earlier run) are skipped; a number another message took meanwhile (a DM
 * that had messages of its own) is replaced by the converse's next one.
 */
export class MessageWriter {
  readonly counts: WrittenCounts = { messages: 0, replies: 0, reactions: 0, files: 0 };
  readonly converses = new Map<string, ConverseTally>();
  readonly threads = new Map<string, ThreadTally>();
  #batch: PendingBatch = [];
  readonly #inFlight = new Set<Promise<void>>();
  #failed: Error | undefined;

  readonly c: ImportCollections;
  readonly storage: ObjectStorage;
  readonly ids: DerivedIds;
  readonly numbering: Numbering;
  readonly destinations: ReadonlyMap<string, Destination>;
  readonly person: (key: string) => Person;
  readonly skipped: SkipCounter;
  readonly progress: (messages: number) => void;

  constructor(deps: MessageWriterDeps) {
    this.c = deps.c;
    this.storage = deps.storage;
    this.ids = deps.ids;
    this.numbering = deps.numbering;
    this.destinations = deps.destinations;
    this.person = deps.person;
    this.skipped = deps.skipped;
    this.progress = deps.progress;
  }

  /** The id a message of the export has here (its own time in the first bytes). */
  messageId(key: string, at: number): Types.ObjectId {
    return this.ids.id('message', key, new Date(at));
  }

  async add(m: SourceMessage, ordinal: number): Promise<void> {
    const dest = this.destinations.get(m.channelKey)!;
    const seq = dest.base + this.numbering.seqAt(ordinal);
    const at = m.createdAt.getTime();
    const id = this.messageId(m.key, at);
    const author = this.person(m.authorKey);
    const converseKey = dest.converseId.toHexString();
    const tally = this.converses.get(converseKey) ?? { lastSeq: 0, lastMessageAt: 0, pins: 0, lastManySeq: 0 };
    this.converses.set(converseKey, tally);
    tally.lastSeq = Math.max(tally.lastSeq, seq);
    tally.lastMessageAt = Math.max(tally.lastMessageAt, at);

    let text = unicodeShortcodes(
      replaceMentionTokens(m.text, (key) => `@${this.person(key).username}`),
      dest.group?.customEmoji,
    );
    if ([...text].length > MAX_CONTENT) {
      text = `${[...text].slice(0, MAX_CONTENT - 1).join('')}…`;
      this.skipped.add('message text shortened to 4,000 characters (kept, not skipped)');
    }
    const mentions = [
      ...new Map(mentionedKeys(m.text).map((k) => [String(this.person(k).id), this.person(k).id])).values(),
    ];
    const doc: Doc = {
      _id: id,
      converseId: dest.converseId,
      seq,
      authorId: author.id,
      content: text,
      mentions,
      attachments: [],
      reactionCounts: {},
      createdAt: m.createdAt,
    };
    if (m.editedAt && !Number.isNaN(m.editedAt.getTime())) doc.editedAt = m.editedAt;
    if (m.emote) doc.emote = true;
    if (MANY.test(text) || HERE.test(text)) {
      if (MANY.test(text)) doc.mentionsAll = true;
      if (HERE.test(text)) doc.mentionsHere = true;
      doc.mentionsMany = dest.converseId;
      tally.lastManySeq = Math.max(tally.lastManySeq, seq);
    }
    const rootAt = m.threadRootKey ? this.numbering.timeOf(m.threadRootKey) : undefined;
    if (m.threadRootKey && rootAt !== undefined && m.threadRootKey !== m.key) {
      const rootId = this.messageId(m.threadRootKey, rootAt);
      doc.threadId = rootId;
      const thread = this.threads.get(rootId.toHexString()) ?? {
        converseId: dest.converseId,
        replyCount: 0,
        lastReplyAt: 0,
        participantIds: new Map(),
      };
      this.threads.set(rootId.toHexString(), thread);
      thread.replyCount++;
      thread.lastReplyAt = Math.max(thread.lastReplyAt, at);
      thread.participantIds.set(author.id.toHexString(), author.id);
    }
    const replyAt = m.replyToKey ? this.numbering.timeOf(m.replyToKey) : undefined;
    if (m.replyToKey && replyAt !== undefined) doc.replyTo = this.messageId(m.replyToKey, replyAt);
    if (m.pinned) {
      if (tally.pins < MAX_PINS) {
        tally.pins++;
        doc.pinned = { by: author.id, at: m.createdAt, converseId: dest.converseId };
      } else this.skipped.add('pin beyond the 50 a panel keeps (message kept)');
    }
    const reactions = this.#reactions(m, id, dest, doc);
    const files = m.files.map((f) => ({ file: f, id: this.ids.id('file', f.key, m.createdAt) }));
    doc.attachments = files.map((f) => f.id);
    this.#batch.push({
      doc,
      reactions,
      files: files.map((f) => ({ ...f, uploaderId: author.id, at: m.createdAt, converseId: dest.converseId })),
    });
    if (this.#batch.length >= BATCH) await this.#send();
  }

  #reactions(m: SourceMessage, messageId: Types.ObjectId, dest: Destination, doc: Doc): Doc[] {
    const docs: Doc[] = [];
    const counts: Record<string, number> = {};
    for (const r of m.reactions) {
      const emoji = this.#emoji(r.emoji, dest);
      if (!emoji) {
        this.skipped.add('reaction with an emoji that has no Unicode equivalent or image', r.userKeys.length || 1);
        continue;
      }
      if (!(emoji in counts) && Object.keys(counts).length >= MAX_REACTION_KINDS) {
        this.skipped.add('reaction beyond the 20 kinds a message keeps', r.userKeys.length || 1);
        continue;
      }
      if (r.userKeys.length === 0) {
        this.skipped.add('reaction the export does not say who made', 1);
        continue;
      }
      for (const userKey of new Set(r.userKeys)) {
        const user = this.person(userKey).id;
        if (docs.some((d) => d.emoji === emoji && (d.userId as Types.ObjectId).equals(user))) continue;
        docs.push({
          _id: this.ids.id('reaction', `${m.key}\u0000${emoji}\u0000${userKey}`, m.createdAt),
          messageId,
          userId: user,
          emoji,
        });
        counts[emoji] = (counts[emoji] ?? 0) + 1;
      }
    }
    doc.reactionCounts = counts;
    if (Object.keys(counts).length > 0) doc.reactionKinds = Object.keys(counts).length;
    return docs;
  }

  /** A reaction's emoji as stored: Unicode, or `:name:` of the group's custom emoji. */
  #emoji(given: string, dest: Destination): string | undefined {
    if (UNICODE_EMOJI.test(given)) return normalizeEmoji(given);
    const name = given.replace(/^:|:$/g, '');
    // The group's own emoji of that name first (Discord lets a server name one like a standard one).
    const custom = name.toLowerCase();
    if (dest.group?.customEmoji.has(custom)) return `:${custom}:`;
    return unicodeForName(name);
  }

  /**
   * Hands the batch to a write, waiting first for a slot: batches are
   * independent (every number was given in the first pass), so a few are
   * written at once while the next one is read.
   */
  async #send(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length === 0) return;
    while (this.#inFlight.size >= WRITES_AT_ONCE) await Promise.race(this.#inFlight);
    const write = this.#write(batch).finally(() => this.#inFlight.delete(write));
    this.#inFlight.add(write);
    // A failed write fails the import at the next send or at flush().
    write.catch(() => undefined);
    if (this.#failed) throw this.#failed;
  }

  /** Writes what is left and waits for every write. */
  async flush(): Promise<void> {
    await this.#send();
    await Promise.all(this.#inFlight);
    if (this.#failed) throw this.#failed;
  }

  async #write(batch: PendingBatch): Promise<void> {
    try {
      await this.#writeBatch(batch);
    } catch (err) {
      this.#failed ??= err as Error;
      throw err;
    }
  }

  async #writeBatch(batch: PendingBatch): Promise<void> {
    const available = await this.#storeFiles(batch.flatMap((b) => b.files));
    for (const b of batch) {
      if (b.files.length === 0) continue;
      b.doc.attachments = b.files.filter((f) => available.has(String(f.id))).map((f) => f.id);
      if (b.doc.attachments.length === 0 && String(b.doc.content).trim() === '') {
        b.doc.content = `_(${b.files.map((f) => f.file.name).join(', ')}: not in the export)_`;
      }
    }
    const result = await insertNew(
      this.c.messages,
      batch.map((b) => b.doc),
    );
    const existing = new Set<string>();
    if (result.existing > 0) {
      const stored = await this.c.messages
        .find({ _id: { $in: batch.map((b) => b.doc._id) } }, { projection: { _id: 1 } })
        .toArray();
      const inserted = new Set(result.collided.map((d) => String(d._id)));
      for (const s of stored) if (!inserted.has(String(s._id))) existing.add(String(s._id));
    }
    let renumbered = 0;
    for (const doc of result.collided) if (await this.#renumber(doc)) renumbered++;
    const fresh = batch.filter((b) => !existing.has(String(b.doc._id)));
    this.counts.messages += result.inserted + renumbered;
    this.counts.replies += fresh.filter((b) => b.doc.threadId).length;
    this.skipped.add('already imported', result.existing);
    const reactions = await insertNew(
      this.c.reactions,
      fresh.flatMap((b) => b.reactions),
    );
    this.counts.reactions += reactions.inserted;
    this.progress(this.counts.messages);
  }

  /** A message whose number was taken: it goes after the converse's last one (a DM's own messages came first). */
  async #renumber(doc: Doc): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const counter = await this.c.converses.findOneAndUpdate(
        { _id: doc.converseId },
        { $inc: { lastSeq: 1 } },
        { returnDocument: 'after', projection: { lastSeq: 1 } },
      );
      const next = { ...doc, seq: Number(counter?.lastSeq ?? 0) };
      const result = await insertNew(this.c.messages, [next]);
      if (result.inserted === 1) {
        const tally = this.converses.get(String(doc.converseId));
        if (tally) tally.lastSeq = Math.max(tally.lastSeq, next.seq);
        return true;
      }
      if (result.existing === 1) {
        this.skipped.add('already imported');
        return false;
      }
    }
    throw new Error(`no free number for a message in converse ${String(doc.converseId)}`);
  }

  /** Stores the files of a batch that are not stored yet, a few at a time; answers the ids of those stored. */
  async #storeFiles(files: PendingFile[]): Promise<Set<string>> {
    if (files.length === 0) return new Set();
    const stored = new Set(
      (await this.c.files.find({ _id: { $in: files.map((f) => f.id) } }, { projection: { _id: 1 } }).toArray()).map(
        (f) => String(f._id),
      ),
    );
    const todo = files.filter((f) => !stored.has(String(f.id)));
    this.skipped.add('file already imported', files.length - todo.length);
    let next = 0;
    const work = async () => {
      while (next < todo.length) {
        const f = todo[next++]!;
        const body = await f.file.open().catch(() => undefined);
        if (!body) {
          this.skipped.add('file missing from the export');
          continue;
        }
        await storeFile(this.c, this.storage, {
          id: f.id,
          name: f.file.name,
          uploaderId: f.uploaderId,
          createdAt: f.at,
          body,
          converseIds: [f.converseId],
        });
        stored.add(String(f.id));
        this.counts.files++;
      }
    };
    await Promise.all(Array.from({ length: FILES_AT_ONCE }, work));
    return stored;
  }
}

export interface MessageWriterDeps {
  c: ImportCollections;
  storage: ObjectStorage;
  ids: DerivedIds;
  numbering: Numbering;
  destinations: ReadonlyMap<string, Destination>;
  person: (key: string) => Person;
  skipped: SkipCounter;
  /** Told the messages written so far after each batch. */
  progress: (messages: number) => void;
}

type PendingBatch = Array<{ doc: Doc; reactions: Doc[]; files: PendingFile[] }>;

interface PendingFile {
  file: SourceFile;
  id: Types.ObjectId;
  uploaderId: Types.ObjectId;
  at: Date;
  converseId: Types.ObjectId;
}
