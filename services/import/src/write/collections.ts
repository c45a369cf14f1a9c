import type mongoose from 'mongoose';

/**
 * The collections an import writes, owned by the services that serve them
 * (user, group, chat, file). The importer writes them directly, in bulk, as
 * the backup tools do: it is the one writer that creates whole groups with
 * their history at once, and it writes documents of exactly the shapes those
 * services store (see their models.ts), never half of one. The running
 * platform learns of what it wrote afterwards (`../announce/`).
 */
export interface ImportCollections {
  users: mongoose.mongo.Collection;
  groups: mongoose.mongo.Collection;
  members: mongoose.mongo.Collection;
  converses: mongoose.mongo.Collection;
  messages: mongoose.mongo.Collection;
  reactions: mongoose.mongo.Collection;
  reads: mongoose.mongo.Collection;
  files: mongoose.mongo.Collection;
  emoji: mongoose.mongo.Collection;
}

export const importCollections = (db: mongoose.mongo.Db): ImportCollections => ({
  users: db.collection('users'),
  groups: db.collection('groups'),
  members: db.collection('members'),
  converses: db.collection('converses'),
  messages: db.collection('messages'),
  reactions: db.collection('reactions'),
  reads: db.collection('reads'),
  files: db.collection('files'),
  emoji: db.collection('groupemojis'),
});

/** Duplicate-key errors of a bulk insert, told apart: the document was there already (`_id`), or something else collided. */
export function duplicates(err: unknown): { ids: number[]; others: number[] } | undefined {
  const writeErrors = (err as { writeErrors?: unknown })?.writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  if (list.length === 0) return undefined;
  const ids: number[] = [];
  const others: number[] = [];
  for (const e of list as Array<{ code?: number; index: number; errmsg?: string; err?: { errmsg?: string } }>) {
    if (e.code !== 11000) return undefined;
    const message = e.errmsg ?? e.err?.errmsg ?? '';
    (/index: _id_ /.test(message) || /_id_ dup key/.test(message) ? ids : others).push(e.index);
  }
  return { ids, others };
}

/** Inserts documents that may be there already: answers how many were new, and which collided on another unique key. */
export async function insertNew(
  collection: mongoose.mongo.Collection,
  docs: mongoose.mongo.BSON.Document[],
): Promise<{ inserted: number; existing: number; collided: mongoose.mongo.BSON.Document[] }> {
  if (docs.length === 0) return { inserted: 0, existing: 0, collided: [] };
  try {
    await collection.insertMany(docs, { ordered: false });
    return { inserted: docs.length, existing: 0, collided: [] };
  } catch (err) {
    const dup = duplicates(err);
    if (!dup) throw err;
    return {
      inserted: docs.length - dup.ids.length - dup.others.length,
      existing: dup.ids.length,
      collided: dup.others.map((i) => docs[i]!),
    };
  }
}
