import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ObjectStorage } from '@im/sdk';
import mongoose from 'mongoose';
import tar from 'tar-stream';
import { FORMAT, MANIFEST_ENTRY, type Manifest } from './archive-format.ts';

const { EJSON } = mongoose.mongo.BSON;
const BATCH = 1000;

/** Refuses a database that holds any document: the data tools load into empty ones only. */
export async function assertEmpty(db: mongoose.mongo.Db, tool: string): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('system.')) continue;
    if ((await db.collection(name).estimatedDocumentCount()) > 0) {
      throw new Error(`the database is not empty (${name} holds documents): ${tool} loads into an empty one`);
    }
  }
}

/** Calls `onEntry` for each entry of the archive, in order, with its bytes as a stream. */
async function readArchive(file: string, onEntry: (name: string, body: Readable) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const done = pipeline(createReadStream(file), createGunzip(), extract);
  done.catch(() => undefined); // awaited below; a failure midway also ends the loop
  for await (const entry of extract) {
    // tar-stream's entries are streamx streams: readline and put() want Node's.
    await onEntry(entry.header.name, Readable.from(entry));
  }
  await done;
}

/** Reads the archive once without writing anything: whole, and of this format. */
export async function checkBackup(file: string): Promise<Manifest> {
  const seen = new Map<string, number>();
  let manifest: Manifest | undefined;
  const reading = readArchive(file, async (name, body) => {
    if (name === MANIFEST_ENTRY) {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
      return;
    }
    let lines = 0;
    if (name.startsWith('db/')) {
      for await (const line of createInterface({ input: body, crlfDelay: Infinity })) if (line) lines += 1;
    } else {
      for await (const chunk of body) lines += (chunk as Buffer).length;
    }
    seen.set(name, lines);
  });
  await reading.catch((err: unknown) => {
    throw new Error(`${file} is not a whole backup (${err instanceof Error ? err.message : String(err)})`);
  });
  if (!manifest || manifest.format !== FORMAT) throw new Error(`${file} is not a complete im-platform backup`);
  for (const [collection, count] of Object.entries(manifest.collections)) {
    if (seen.get(`db/${collection}.ndjson`) !== count)
      throw new Error(`${file} is damaged: ${collection} holds ${seen.get(`db/${collection}.ndjson`)} of ${count}`);
  }
  for (const object of manifest.files) {
    if (seen.get(`files/${object.key}`) !== object.size) throw new Error(`${file} is damaged: file ${object.key}`);
  }
  return manifest;
}

/**
 * Loads a backup into an empty database (and its files into the storage):
 * checks the whole archive first, refuses a database that holds documents,
 * then inserts every collection and stores every file. The platform's
 * indexes are made when it starts.
 */
export async function restoreBackup(
  connection: mongoose.Connection,
  storage: ObjectStorage | undefined,
  file: string,
  progress: (line: string) => void = () => {},
): Promise<Manifest> {
  const manifest = await checkBackup(file);
  const db = connection.db!;
  await assertEmpty(db, 'restore');
  if (manifest.files.length > 0 && !storage) throw new Error('the backup holds files but no file storage is set up');
  const contentTypes = new Map(manifest.files.map((f) => [f.key, f.contentType]));
  await readArchive(file, async (name, body) => {
    const collection = /^db\/(.+)\.ndjson$/.exec(name)?.[1];
    if (collection) {
      let batch: mongoose.mongo.BSON.Document[] = [];
      let count = 0;
      for await (const line of createInterface({ input: body, crlfDelay: Infinity })) {
        if (!line) continue;
        batch.push(EJSON.parse(line, { relaxed: false }) as mongoose.mongo.BSON.Document);
        if (batch.length === BATCH) {
          await db.collection(collection).insertMany(batch, { ordered: true });
          count += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) await db.collection(collection).insertMany(batch, { ordered: true });
      count += batch.length;
      progress(`${collection}: ${count} documents`);
      return;
    }
    const key = name.startsWith('files/') ? name.slice('files/'.length) : undefined;
    if (key && storage) {
      // put() reads to the end; the PassThrough keeps the archive's stream ours to drain.
      const bytes = new PassThrough();
      await Promise.all([storage.put(key, bytes, contentTypes.get(key) ?? 'application/octet-stream'), pipeline(body, bytes)]);
      return;
    }
    body.resume();
  });
  if (manifest.files.length > 0) progress(`files: ${manifest.files.length} objects`);
  return manifest;
}
