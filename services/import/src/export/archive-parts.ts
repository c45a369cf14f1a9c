import { mongo } from 'mongoose';
import type { ObjectStorage } from '@im/sdk';
import { USERS_PATH, type ArchiveUser } from '../archive/format.ts';
import type { ArchiveZip } from './archive-zip.ts';
import type { ExportRefs } from './converse-writer.ts';

type ObjectId = mongo.ObjectId;

const USER_BATCH = 1000;

interface StoredUser {
  _id: ObjectId;
  username: string;
  nickname: string;
  status: 'active' | 'deactivated' | 'deleted';
  email?: string;
  bot?: unknown;
}

/**
 * users.json: every person the archive refers to, read a batch at a time.
 * E-mail addresses only of `withEmailOf` (a personal export's own person):
 * a group's export does not hand its members' addresses to its owner.
 */
export async function addUsers(
  db: mongo.Db,
  zip: ArchiveZip,
  userIds: Iterable<string>,
  withEmailOf?: string,
): Promise<number> {
  const out = zip.jsonArray(USERS_PATH);
  const ids = [...userIds].sort();
  for (let i = 0; i < ids.length; i += USER_BATCH) {
    const batch = ids.slice(i, i + USER_BATCH).map((id) => new mongo.ObjectId(id));
    const users = await db
      .collection<StoredUser>('users')
      .find(
        { _id: { $in: batch } },
        { sort: { _id: 1 }, projection: { username: 1, nickname: 1, status: 1, email: 1, bot: 1 } },
      )
      .toArray();
    for (const user of users) {
      const id = user._id.toHexString();
      const entry: ArchiveUser = {
        id,
        username: user.status === 'deleted' ? `deleted-${id}` : user.username,
        nickname: user.nickname,
        ...(withEmailOf === id && user.email ? { email: user.email } : {}),
        ...(user.status === 'deleted' ? { deleted: true as const } : {}),
        ...(user.bot ? { bot: true as const } : {}),
      };
      await out.write(entry);
    }
  }
  return out.end();
}

/** The attached files the converses referred to, each streamed from storage when the zip reaches it. */
export async function addFiles(zip: ArchiveZip, storage: ObjectStorage, refs: ExportRefs): Promise<number> {
  let added = 0;
  for (const file of refs.files.values()) {
    const size = await storage.size(file.key);
    if (size === null) continue; // its bytes are gone: the message still names it
    zip.addLazy(file.path, size, () => storage.get(file.key));
    added += 1;
  }
  return added;
}

/** The exporting server's name in the manifest: what a re-import's origin starts with. */
export const serverName = (publicUrl: string | undefined, hostname: string): string => publicUrl ?? hostname;
