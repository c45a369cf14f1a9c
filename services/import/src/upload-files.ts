import { createWriteStream } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ImportKind } from '@im/protocol';
import type { ObjectStorage } from '@im/sdk';
import yauzl from 'yauzl';

/**
 * An uploaded export, from object storage to a file of its own in `dir`
 * (a zip is read by random access; JSON is streamed from disk), named by what
 * its first bytes say it is. A Discord export uploaded as a zip (a folder of
 * channel files and their media) is unpacked, as its reader takes a folder.
 * Answers the path to give the reader.
 */
export async function materializeUpload(
  storage: ObjectStorage,
  key: string,
  kind: ImportKind,
  dir: string,
  fileName: string,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  // Named as uploaded (readers take a group's name from it: "Acme Slack export ....zip"), never a path.
  const base =
    [...fileName.replace(/\.(zip|jsonl|json)$/i, '')]
      .map((ch) => (ch === '/' || ch === '\\' || ch.charCodeAt(0) < 0x20 ? '_' : ch))
      .join('')
      .replace(/^\.+/, '_')
      .slice(0, 200) || 'upload';
  const raw = join(dir, base);
  await pipeline(await storage.get(key), createWriteStream(raw));
  const head = Buffer.alloc(4);
  const handle = await open(raw);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const isZip = head.readUInt32LE(0) === 0x04034b50;
  if (isZip && kind === 'discord') return unzipTo(raw, join(dir, 'export'));
  const extension = isZip ? '.zip' : kind === 'mattermost' ? '.jsonl' : '.json';
  const named = `${raw}${extension}`;
  await rename(raw, named);
  return named;
}

/** Unpacks a zip into `target`, refusing entries that would land outside it. */
async function unzipTo(file: string, target: string): Promise<string> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/') || name.split('/').some((part) => part === '..') || name.startsWith('/')) {
        zip.readEntry();
        return;
      }
      const out = join(target, ...name.split('/'));
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        mkdir(dirname(out), { recursive: true })
          .then(() => pipeline(stream, createWriteStream(out)))
          .then(() => zip.readEntry(), reject);
      });
    });
    zip.readEntry();
  });
  return target;
}
