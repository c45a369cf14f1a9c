import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * An export's files, whether it came as a zip or as the folder it unpacks
 * to: names are `/`-separated paths inside it. A zip is read from its
 * central directory and each entry streamed when asked for, so nothing is
 * held in memory but the list of names.
 */
export interface ExportFiles {
  /** Every file's path, in a stable order. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The file's bytes, or undefined when the export does not hold it. */
  open(name: string): Promise<Readable | undefined>;
  close(): Promise<void>;
}

export async function openExportFiles(path: string): Promise<ExportFiles> {
  return (await stat(path)).isDirectory() ? openFolder(path) : openZip(path);
}

async function openFolder(root: string): Promise<ExportFiles> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const names = entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
  const present = new Set(names);
  return {
    names,
    has: (name) => present.has(name),
    open: async (name) => (present.has(name) ? createReadStream(join(root, ...name.split('/'))) : undefined),
    close: async () => undefined,
  };
}

async function openZip(file: string): Promise<ExportFiles> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName.replace(/^\.\//, ''), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', reject);
    zip.readEntry();
  });
  const names = [...entries.keys()].sort();
  return {
    names,
    has: (name) => entries.has(name),
    open: async (name) => {
      const entry = entries.get(name);
      if (!entry) return undefined;
      return new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
      );
    },
    close: async () => zip.close(),
  };
}

/** A file of the export read whole as JSON (for the small ones: users, channels, a day of a channel). */
export async function readJson<T>(files: ExportFiles, name: string): Promise<T | undefined> {
  const stream = await files.open(name);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}
