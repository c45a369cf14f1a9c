// Document ids for the dataset. The services use ObjectIds, whose first four
// bytes are a timestamp the platform reads back (search and the notification
// inbox list "newest first" by _id; a DM without createdAt falls back to its
// id's time), so a seeded id carries the seeded document's own time. The
// other eight bytes are deterministic: kind, a tag of the seed, and the
// document's number within its kind.
import { Types } from 'mongoose';
import { hash32 } from './seed-prng.ts';

export const ID_KIND = {
  user: 1,
  group: 2,
  panel: 3,
  converse: 4,
  member: 5,
  message: 6,
  reaction: 7,
  read: 8,
  file: 9,
  notification: 10,
} as const;

export type IdKind = keyof typeof ID_KIND;

export function idMaker(seed: number): (kind: IdKind, index: number, at: Date | number) => Types.ObjectId {
  const tag = hash32(`ids:${seed >>> 0}`);
  return (kind, index, at) => {
    const bytes = Buffer.allocUnsafe(12);
    bytes.writeUInt32BE(Math.floor(Number(at) / 1000) >>> 0, 0);
    bytes.writeUInt8(ID_KIND[kind], 4);
    bytes.writeUIntBE(tag & 0xffffff, 5, 3);
    bytes.writeUInt32BE(index >>> 0, 8);
    return new Types.ObjectId(bytes);
  };
}
