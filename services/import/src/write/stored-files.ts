import { createHash, randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { isDuplicateKeyError, sniffMime, SNIFF_BYTES, type ObjectStorage } from '@im/sdk';
import type { Types } from 'mongoose';
import type { ImportCollections } from './collections.ts';

/** Longest file name kept (code points), as uploads allow. */
const MAX_NAME = 255;

/** A storage key like an upload's: `f/YYYYMM/uuid`. */
function fileKey(prefix: string, now = new Date()): string {
  return `${prefix}/${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
}

/** Control characters and path separators become `_` (the name is only shown, never a path). */
export const safeFileName = (name: string): string =>
  [
    ...[...name]
      .map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' || ch === '/' || ch === '\\' ? '_' : ch))
      .join('')
      .trim(),
  ]
    .slice(-MAX_NAME)
    .join('') || 'file';

/**
 * Stores one file of the export the way an upload is stored: its bytes in
 * object storage (hashed and sniffed on the way), then its document, which
 * says who may read it (the converse's members, or a group's for custom
 * emoji). The document comes last, so a file interrupted half-way is not
 * there and the next run stores it again.
 */
export async function storeFile(
  c: ImportCollections,
  storage: ObjectStorage,
  file: {
    id: Types.ObjectId;
    name: string;
    uploaderId: Types.ObjectId;
    createdAt: Date;
    body: Readable;
    converseIds?: Types.ObjectId[];
    groupIds?: Types.ObjectId[];
  },
): Promise<{ mime: string; size: number }> {
  const key = fileKey(file.groupIds ? 'e' : 'f');
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const sniffed = Promise.withResolvers<string>();
  const through = new PassThrough();
  file.body.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
    if (head.length < SNIFF_BYTES) {
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      if (head.length >= SNIFF_BYTES) sniffed.resolve(sniffMime(head));
    }
  });
  file.body.on('end', () => sniffed.resolve(sniffMime(head)));
  file.body.on('error', (err) => through.destroy(err));
  file.body.pipe(through);
  await storage.put(key, through, 'application/octet-stream');
  const mime = await sniffed.promise;
  const doc = {
    _id: file.id,
    uploaderId: file.uploaderId,
    name: safeFileName(file.name),
    size,
    mime,
    sha256: hash.digest('hex'),
    key,
    converseIds: file.converseIds ?? [],
    ...(file.groupIds ? { groupIds: file.groupIds } : {}),
    createdAt: file.createdAt,
  };
  try {
    await c.files.insertOne(doc);
  } catch (err) {
    // Stored by a run that stopped before what refers to it: keep that one.
    await storage.remove(key);
    if (!isDuplicateKeyError(err)) throw err;
  }
  return { mime, size };
}
