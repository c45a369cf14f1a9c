import { Types } from 'mongoose';

type ObjectId = Types.ObjectId;

// Node hands out small Buffers as slices of a shared 64 KiB slab
// (Buffer.poolSize on Node 24), and the BSON library makes every ObjectId it
// reads or generates that way. A 12-byte id kept in a long-lived cache keeps
// its whole slab alive: a cache of messages taken one at a time over an hour
// held one slab per few messages (10 MB of slabs for 2 MB of messages in a
// soak run). A document about to be kept gets its ids copied into one small
// buffer of its own, so keeping it keeps nothing else.

const isObjectId = (value: unknown): value is ObjectId =>
  typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Visits every ObjectId held in plain objects and arrays under `value` (not inside class instances). */
function eachObjectId(value: unknown, visit: (id: ObjectId, replace: (next: ObjectId) => void) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (isObjectId(item)) visit(item, (next) => (value[i] = next));
      else if (typeof item === 'object' && item !== null) eachObjectId(item, visit);
    });
    return;
  }
  if (typeof value !== 'object' || value === null || !isPlain(value)) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (isObjectId(item)) visit(item, (next) => (record[key] = next));
    else if (typeof item === 'object' && item !== null) eachObjectId(item, visit);
  }
}

/**
 * Gives the ObjectIds of a plain document (a lean query result, a message
 * about to be kept) one buffer of the document's own, in place, and returns
 * the document. The ids keep their values; only what backs them changes.
 */
export function withOwnObjectIds<T>(doc: T): T {
  let count = 0;
  eachObjectId(doc, () => (count += 1));
  if (count === 0) return doc;
  // Buffer.alloc never takes from the shared pool.
  const own = Buffer.alloc(12 * count);
  let at = 0;
  eachObjectId(doc, (id, replace) => {
    own.set(id.id, at);
    replace(new Types.ObjectId(own.subarray(at, at + 12)));
    at += 12;
  });
  return doc;
}

/** Bytes of the buffer behind an ObjectId's 12 bytes (12 for one of its own, the slab's size for a pooled one). */
export const backingBytesOf = (id: ObjectId): number => id.id.buffer.byteLength;
