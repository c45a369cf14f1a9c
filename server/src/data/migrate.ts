import type mongoose from 'mongoose';
import { readingOrder } from './archive-format.ts';
import { assertEmpty, collectionNames, insertInBatches } from './database.ts';

export interface MigrationReport {
  /** Documents per collection in the source and in the target after the copy. */
  collections: Record<string, { source: number; target: number }>;
  /** Indexes made in the target (besides _id). */
  indexes: number;
  /** Converses whose counter is below a message's seq in the target (must be none). */
  countersBehind: string[];
}

/**
 * Copies every collection of `source` into the empty `target` with the
 * indexes the services made in the source, then checks it: the same number
 * of documents in each collection, and no converse whose sequence counter is
 * below one of its messages (the next send would collide).
 */
export async function migrateDatabase(
  source: mongoose.Connection,
  target: mongoose.Connection,
  progress: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const from = source.db!;
  const to = target.db!;
  await assertEmpty(to, 'migrate');
  const names = await collectionNames(from);
  const report: MigrationReport = { collections: {}, indexes: 0, countersBehind: [] };
  for (const name of readingOrder(names)) {
    await insertInBatches(to.collection(name), from.collection(name).find({}, { sort: { _id: 1 } }));
    report.indexes += await copyIndexes(from.collection(name), to.collection(name));
    report.collections[name] = {
      source: await from.collection(name).countDocuments(),
      target: await to.collection(name).countDocuments(),
    };
    progress(`${name}: ${report.collections[name].target} documents`);
  }
  if (names.includes('converses') && names.includes('messages')) {
    const highest = to
      .collection('messages')
      .aggregate<{ _id: mongoose.Types.ObjectId; seq: number }>([{ $group: { _id: '$converseId', seq: { $max: '$seq' } } }]);
    for await (const { _id, seq } of highest) {
      const counter = await to.collection('converses').findOne({ _id }, { projection: { lastSeq: 1 } });
      if (((counter?.lastSeq as number | undefined) ?? 0) < seq) report.countersBehind.push(_id.toHexString());
    }
  }
  return report;
}

/** Makes the source collection's indexes (other than _id) in the target; answers how many. */
async function copyIndexes(from: mongoose.mongo.Collection, to: mongoose.mongo.Collection): Promise<number> {
  let made = 0;
  for (const index of await from.listIndexes().toArray()) {
    if (index.name === '_id_') continue;
    await to.createIndex(index.key as mongoose.mongo.IndexSpecification, {
      name: index.name as string,
      ...(index.unique ? { unique: true } : {}),
      ...(index.sparse ? { sparse: true } : {}),
      ...(index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds as number } : {}),
      ...(index.partialFilterExpression
        ? { partialFilterExpression: index.partialFilterExpression as mongoose.mongo.Document }
        : {}),
    });
    made += 1;
  }
  return made;
}
