import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import type { ImportKind } from '@im/protocol';

/**
 * Every document an import writes gets an id derived from the export: the
 * kind of export, its origin, what the document is and the export's own key
 * for it. The same export imported twice lands on the same ids, so the second
 * run's inserts are duplicates and add nothing, and a run that stopped
 * resumes where it was without any bookkeeping; references (a reply's root,
 * a reaction's message) are computed, never looked up.
 *
 * The first four bytes are a time, as in any ObjectId (a message's own time,
 * so ids sort like the messages; otherwise the time given), the other eight
 * come from a SHA-256 of the rest.
 */
export class DerivedIds {
  readonly #prefix: string;

  constructor(kind: ImportKind, origin: string) {
    this.#prefix = `${kind}\u0000${origin}\u0000`;
  }

  id(what: string, key: string, at: Date = EPOCH): Types.ObjectId {
    const bytes = Buffer.alloc(12);
    bytes.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.floor(at.getTime() / 1000))), 0);
    createHash('sha256').update(this.#prefix).update(what).update('\u0000').update(key).digest().copy(bytes, 4, 0, 8);
    return new Types.ObjectId(bytes);
  }
}

/** The time in ids of what has no time of its own (groups, panels, people): fixed, so ids stay the same across runs. */
const EPOCH = new Date('2020-01-01T00:00:00Z');

/** A 32-bit hash of a key: the first pass keeps these (not the keys) to know which messages exist. */
export function keyHash32(key: string): number {
  return createHash('sha1').update(key).digest().readUInt32BE(0);
}
