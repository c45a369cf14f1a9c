/**
 * A backup is a gzipped tar:
 *   db/<collection>.ndjson   one document per line, canonical Extended JSON
 *   files/<key>              the bytes of each stored file and preview
 *   manifest.json            last: what the archive holds, so a cut-off copy is refused
 */
export const FORMAT = 'im-platform-backup';
export const FORMAT_VERSION = 1;

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** Documents per collection, in the order they were read. */
  collections: Record<string, number>;
  /** Stored objects: key, bytes and content type. */
  files: Array<{ key: string; size: number; contentType: string }>;
}

export const dbEntry = (collection: string) => `db/${collection}.ndjson`;
export const fileEntry = (key: string) => `files/${key}`;
export const MANIFEST_ENTRY = 'manifest.json';
/** The collection a `db/` entry holds, if it is one. */
export const entryCollection = (name: string) => /^db\/(.+)\.ndjson$/.exec(name)?.[1];
/** The storage key of a `files/` entry, if it is one. */
export const entryFileKey = (name: string) => (name.startsWith('files/') ? name.slice('files/'.length) : undefined);

/**
 * Reading order while the platform runs. Referencing collections come before
 * what they reference (messages before their files and converses), and the
 * converses, which hold each converse's sequence counter, come last: every
 * message in the backup then has a seq its converse's counter has passed
 * (counters only grow, and a seq is reserved before its message is written).
 * Numbers reserved for messages written after the messages were read are
 * filled with tombstones when the restored platform starts.
 */
const FIRST = ['messages', 'reactions', 'reads', 'notifications', 'members', 'invites', 'sessions'];
const LAST = ['groups', 'users', 'files', 'fileusages', 'converses'];

export function readingOrder(names: readonly string[]): string[] {
  const known = new Set([...FIRST, ...LAST]);
  const middle = names.filter((n) => !known.has(n)).sort();
  const present = new Set(names);
  return [...FIRST.filter((n) => present.has(n)), ...middle, ...LAST.filter((n) => present.has(n))];
}
