import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ObjectStorage } from '@im/sdk';
import mongoose from 'mongoose';
import tar from 'tar-stream';
import { dbEntry, entryCollection, entryFileKey, fileEntry, FORMAT, MANIFEST_ENTRY, type Manifest } from './archive-format.ts';
import { assertEmpty, insertInBatches } from './database.ts';

const { EJSON } = mongoose.mongo.BSON;

const lines = (body: Readable) => createInterface({ input: body, crlfDelay: Infinity });

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
    // Documents for a collection, bytes for a file.
    let size = 0;
    if (entryCollection(name)) {
      for await (const line of lines(body)) if (line) size += 1;
    } else {
      for await (const chunk of body) size += (chunk as Buffer).length;
    }
    seen.set(name, size);
  });
  await reading.catch((err: unknown) => {
    throw new Error(`${file} is not a whole backup (${err instanceof Error ? err.message : String(err)})`);
  });
  if (!manifest || manifest.format !== FORMAT) throw new Error(`${file} is not a complete im-platform backup`);
  for (const [collection, count] of Object.entries(manifest.collections)) {
    if (seen.get(dbEntry(collection)) !== count)
      throw new Error(`${file} is damaged: ${collection} holds ${seen.get(dbEntry(collection))} of ${count}`);
  }
  for (const object of manifest.files) {
    if (seen.get(fileEntry(object.key)) !== object.size) throw new Error(`${file} is damaged: file ${object.key}`);
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
    const collection = entryCollection(name);
    if (collection) {
      async function* documents() {
        for await (const line of lines(body)) if (line) yield EJSON.parse(line, { relaxed: false }) as mongoose.mongo.BSON.Document;
      }
      progress(`${collection}: ${await insertInBatches(db.collection(collection), documents())} documents`);
      return;
    }
    const key = entryFileKey(name);
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
