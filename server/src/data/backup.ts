import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { finished, pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ObjectStorage } from '@im/sdk';
import mongoose from 'mongoose';
import tar from 'tar-stream';
import type { Readable } from 'node:stream';
import { collectionNames } from './database.ts';
import { dbEntry, fileEntry, FORMAT, FORMAT_VERSION, MANIFEST_ENTRY, readingOrder, type Manifest } from './archive-format.ts';

const { EJSON } = mongoose.mongo.BSON;

/**
 * Writes a backup of every collection, then of every stored file the `files`
 * collection names, to `target` (written beside it and renamed at the end, so
 * a cut-off run leaves no file that looks whole). Reads while the platform
 * runs, in an order that keeps references and sequence counters consistent
 * (see archive-format.ts).
 */
export async function writeBackup(
  connection: mongoose.Connection,
  storage: ObjectStorage | undefined,
  target: string,
  progress: (line: string) => void = () => {},
): Promise<Manifest> {
  const db = connection.db!;
  const names = await collectionNames(db);
  const scratch = mkdtempSync(join(tmpdir(), 'im-backup-'));
  const partial = `${target}.partial`;
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    collections: {},
    files: [],
  };
  try {
    // Each collection goes to a scratch file first: a tar entry needs its size up front.
    const fileDocs: Array<{ key?: string; thumbnailKey?: string; mime?: string }> = [];
    for (const name of readingOrder(names)) {
      const path = join(scratch, `${name}.ndjson`);
      const out = createWriteStream(path);
      let count = 0;
      for await (const doc of db.collection(name).find({}, { sort: { _id: 1 } })) {
        if (!out.write(`${EJSON.stringify(doc, { relaxed: false })}\n`)) await once(out, 'drain');
        if (name === 'files') fileDocs.push(doc as (typeof fileDocs)[number]);
        count += 1;
      }
      out.end();
      await finished(out);
      await addEntry(pack, dbEntry(name), statSync(path).size, createReadStream(path));
      manifest.collections[name] = count;
      progress(`${name}: ${count} documents`);
    }
    if (storage) {
      for (const doc of fileDocs) {
        const objects = [
          ...(doc.key ? [{ key: doc.key, contentType: doc.mime ?? 'application/octet-stream' }] : []),
          ...(doc.thumbnailKey ? [{ key: doc.thumbnailKey, contentType: 'image/webp' }] : []),
        ];
        for (const object of objects) {
          const size = await storage.size(object.key);
          if (size === null) continue; // removed since its record was read
          await addEntry(pack, fileEntry(object.key), size, await storage.get(object.key));
          manifest.files.push({ ...object, size });
        }
      }
      progress(`files: ${manifest.files.length} objects`);
    }
    const body = Buffer.from(JSON.stringify(manifest, null, 2));
    await addEntry(pack, MANIFEST_ENTRY, body.length, body);
    pack.finalize();
    await written;
    await rename(partial, target);
    return manifest;
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    rmSync(partial, { force: true });
    throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Adds one entry of `size` bytes and waits until tar has taken all of it. */
async function addEntry(pack: tar.Pack, name: string, size: number, body: Readable | Buffer): Promise<void> {
  if (Buffer.isBuffer(body)) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name, size }, body, (err) => (err ? reject(err) : resolve())),
    );
    return;
  }
  const entry = pack.entry({ name, size });
  await pipeline(body, entry);
}
