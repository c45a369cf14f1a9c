import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import type { Readable } from 'node:stream';
import { openExportFiles } from '../../source/export-files.ts';

/**
 * Where a Mattermost bulk export's pieces are: its `.jsonl` (read again
 * from the start each time it is asked for) and the files its lines name.
 * `mmctl export create --attachments` zips the `.jsonl` with a `data/`
 * folder; lines name attachments relative to that folder, and custom
 * emoji images by a path that may already start with `data/`. Both are
 * looked for under `data/` first, then as they are.
 */
export interface MattermostFiles {
  openJsonl(): Promise<Readable>;
  /** The export's own name for a file a line refers to, or undefined when the export does not hold it. */
  find(path: string): Promise<string | undefined>;
  open(name: string): Promise<Readable | undefined>;
  close(): Promise<void>;
}

/** A `.jsonl` (its files in `data/` beside it), a `.zip` holding one, or a folder holding one. */
export async function openMattermostFiles(path: string): Promise<MattermostFiles> {
  if ((await stat(path)).isDirectory()) return openBeside(join(path, await jsonlInFolder(path)));
  return (await startsLikeZip(path)) ? openZip(path) : openBeside(path);
}

/** A zip by its first bytes (a local file header), whatever the file is called. */
async function startsLikeZip(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50;
  } finally {
    await handle.close();
  }
}

async function jsonlInFolder(folder: string): Promise<string> {
  const names = (await readdir(folder)).filter((n) => n.toLowerCase().endsWith('.jsonl')).sort();
  if (!names[0]) throw new Error(`no .jsonl file in ${folder}`);
  return names[0];
}

/** A referenced path made safe to look up: relative, `/`-separated, never climbing out of the export. */
function safeRelative(path: string): string | undefined {
  const normal = posix.normalize(path.replaceAll('\\', '/')).replace(/^(\.\/)+/, '');
  if (normal === '' || normal === '.' || normal.startsWith('/') || normal.split('/').includes('..')) return undefined;
  return normal;
}

const candidates = (path: string): string[] => {
  const rel = safeRelative(path);
  return rel ? [...new Set([`data/${rel}`, rel])] : [];
};

function openBeside(jsonl: string): MattermostFiles {
  const root = dirname(jsonl);
  return {
    openJsonl: async () => createReadStream(jsonl),
    find: async (path) => {
      for (const name of candidates(path)) {
        const found = await stat(join(root, ...name.split('/'))).catch(() => undefined);
        if (found?.isFile()) return name;
      }
      return undefined;
    },
    open: async (name) => {
      const rel = safeRelative(name);
      return rel ? createReadStream(join(root, ...rel.split('/'))) : undefined;
    },
    close: async () => undefined,
  };
}

async function openZip(path: string): Promise<MattermostFiles> {
  const files = await openExportFiles(path);
  // The shallowest `.jsonl` is the export's; its folder is where `data/` is.
  const jsonl = files.names
    .filter((n) => n.toLowerCase().endsWith('.jsonl'))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
  if (!jsonl) {
    await files.close();
    throw new Error(`no .jsonl file in ${basename(path)}`);
  }
  const base = jsonl.includes('/') ? jsonl.slice(0, jsonl.lastIndexOf('/') + 1) : '';
  return {
    openJsonl: async () => {
      const stream = await files.open(jsonl);
      if (!stream) throw new Error(`${jsonl} cannot be read`);
      return stream;
    },
    find: async (ref) =>
      candidates(ref)
        .map((n) => base + n)
        .find((n) => files.has(n)),
    open: (name) => files.open(name),
    close: () => files.close(),
  };
}
