import type { mongo } from 'mongoose';
import { attachmentPath, type ArchiveMessage } from '../archive/format.ts';
import type { JsonArrayEntry } from './archive-zip.ts';

type Db = mongo.Db;
type ObjectId = mongo.ObjectId;

/** Messages are read and completed (reactions, files) this many at a time. */
const BATCH = 500;

/** What the converses of an export refer to, gathered as they are written: who to list, which files to add. */
export class ExportRefs {
  readonly userIds = new Set<string>();
  /** Attached files by id: their storage key, size and path in the archive. */
  readonly files = new Map<string, { key: string; size: number; path: string }>();
}

interface StoredMessage {
  _id: ObjectId;
  seq: number;
  authorId: ObjectId;
  content?: string;
  mentions?: ObjectId[];
  attachments?: ObjectId[];
  replyTo?: ObjectId;
  threadId?: ObjectId;
  reactionCounts?: Record<string, number>;
  pinned?: unknown;
  createdAt: Date;
  editedAt?: Date;
  deleted?: boolean;
}

interface StoredFile {
  _id: ObjectId;
  name: string;
  key: string;
  size: number;
}

/**
 * Writes one converse's messages (deleted ones left out) in seq order into
 * `out`, read from the database with a cursor a batch at a time; `onlyAuthor`
 * keeps one person's messages (a personal export of a group's panel).
 */
export async function writeConverseMessages(
  db: Db,
  converseId: ObjectId,
  out: JsonArrayEntry,
  refs: ExportRefs,
  onlyAuthor?: ObjectId,
): Promise<number> {
  const filter: mongo.Filter<StoredMessage> = {
    converseId,
    deleted: { $ne: true },
    ...(onlyAuthor ? { authorId: onlyAuthor } : {}),
  };
  const cursor = db
    .collection<StoredMessage>('messages')
    .find(filter, { sort: { seq: 1 }, batchSize: BATCH, projection: { preview: 0, previewUrl: 0, hereIds: 0 } });
  let batch: StoredMessage[] = [];
  let written = 0;
  const flush = async () => {
    for (const message of await complete(db, batch, refs)) await out.write(message);
    written += batch.length;
    batch = [];
  };
  try {
    for await (const doc of cursor) {
      batch.push(doc);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  } finally {
    await cursor.close();
  }
  return written;
}

/** A batch of stored messages as the archive has them: who reacted with what (one query), attachments (one query). */
async function complete(db: Db, docs: StoredMessage[], refs: ExportRefs): Promise<ArchiveMessage[]> {
  if (docs.length === 0) return [];
  const reacted = docs.filter((d) => Object.keys(d.reactionCounts ?? {}).length > 0).map((d) => d._id);
  const fileIds = docs.flatMap((d) => d.attachments ?? []);
  const [reactions, files] = await Promise.all([
    reacted.length
      ? db
          .collection<{ messageId: ObjectId; userId: ObjectId; emoji: string }>('reactions')
          .find({ messageId: { $in: reacted } }, { sort: { _id: 1 } })
          .toArray()
      : [],
    fileIds.length
      ? db
          .collection<StoredFile>('files')
          .find({ _id: { $in: fileIds } }, { projection: { name: 1, key: 1, size: 1 } })
          .toArray()
      : [],
  ]);
  const reactionsOf = new Map<string, Map<string, string[]>>();
  for (const r of reactions) {
    const byEmoji = reactionsOf.get(r.messageId.toHexString()) ?? new Map<string, string[]>();
    reactionsOf.set(r.messageId.toHexString(), byEmoji);
    const userId = r.userId.toHexString();
    byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), userId]);
    refs.userIds.add(userId);
  }
  const fileById = new Map(files.map((f) => [f._id.toHexString(), f]));
  return docs.map((doc) => {
    const authorId = doc.authorId.toHexString();
    refs.userIds.add(authorId);
    const mentions = (doc.mentions ?? []).map((id) => id.toHexString());
    for (const id of mentions) refs.userIds.add(id);
    const attachments: ArchiveMessage['attachments'] = [];
    for (const id of doc.attachments ?? []) {
      const file = fileById.get(id.toHexString());
      if (!file) continue; // removed since: nothing to put in the archive
      const path = attachmentPath(file._id.toHexString(), file.name);
      refs.files.set(file._id.toHexString(), { key: file.key, size: file.size, path });
      attachments.push({ id: file._id.toHexString(), name: file.name, path });
    }
    const byEmoji = reactionsOf.get(doc._id.toHexString());
    return {
      id: doc._id.toHexString(),
      seq: doc.seq,
      authorId,
      createdAt: doc.createdAt.toISOString(),
      ...(doc.editedAt ? { editedAt: doc.editedAt.toISOString() } : {}),
      text: doc.content ?? '',
      ...(mentions.length ? { mentions } : {}),
      ...(doc.threadId ? { threadId: doc.threadId.toHexString() } : {}),
      ...(doc.replyTo ? { replyTo: doc.replyTo.toHexString() } : {}),
      reactions: byEmoji ? [...byEmoji].map(([emoji, userIds]) => ({ emoji, userIds })) : [],
      ...(doc.pinned ? { pinned: true as const } : {}),
      attachments,
    };
  });
}
