import { mongo } from 'mongoose';
import type { ObjectStorage } from '@im/sdk';
import { avatarPath, USERS_PATH, type ArchiveUser } from '../archive/format.ts';
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
  avatar?: string;
  bot?: unknown;
}

/** A profile picture stored here is `/api/files/<id>` (a link elsewhere is not ours to copy). */
const STORED_AVATAR = /^\/api\/files\/([0-9a-f]{24})$/;

/**
 * users.json: every person the archive refers to, read a batch at a time,
 * with their profile pictures stored on this server (avatars/).
 * E-mail addresses only of `withEmailOf` (a personal export's own person):
 * a group's export does not hand its members' addresses to its owner.
 */
export async function addUsers(
  db: mongo.Db,
  storage: ObjectStorage,
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
        { sort: { _id: 1 }, projection: { username: 1, nickname: 1, status: 1, email: 1, avatar: 1, bot: 1 } },
      )
      .toArray();
    const pictures = await avatarsOf(db, storage, users);
    for (const user of users) {
      const id = user._id.toHexString();
      const picture = pictures.get(id);
      if (picture) zip.addLazy(picture.path, picture.size, () => storage.get(picture.key));
      const entry: ArchiveUser = {
        id,
        username: user.status === 'deleted' ? `deleted-${id}` : user.username,
        nickname: user.nickname,
        ...(withEmailOf === id && user.email ? { email: user.email } : {}),
        ...(picture ? { avatar: picture.path } : {}),
        ...(user.status === 'deleted' ? { deleted: true as const } : {}),
        ...(user.bot ? { bot: true as const } : {}),
      };
      await out.write(entry);
    }
  }
  return out.end();
}

/** The stored profile pictures of these users whose bytes are still there, by user id. */
async function avatarsOf(
  db: mongo.Db,
  storage: ObjectStorage,
  users: StoredUser[],
): Promise<Map<string, { key: string; size: number; path: string }>> {
  const fileIdOf = new Map<string, string>();
  for (const user of users) {
    const match = user.status === 'deleted' ? null : STORED_AVATAR.exec(user.avatar ?? '');
    if (match) fileIdOf.set(user._id.toHexString(), match[1]!);
  }
  const found = new Map<string, { key: string; size: number; path: string }>();
  if (fileIdOf.size === 0) return found;
  const files = await db
    .collection<{ _id: mongo.ObjectId; key: string; mime: string }>('files')
    .find(
      { _id: { $in: [...fileIdOf.values()].map((id) => new mongo.ObjectId(id)) } },
      { projection: { key: 1, mime: 1 } },
    )
    .toArray();
  const byId = new Map(files.map((f) => [f._id.toHexString(), f]));
  for (const [userId, fileId] of fileIdOf) {
    const file = byId.get(fileId);
    const size = file ? await storage.size(file.key) : null;
    if (file && size !== null) found.set(userId, { key: file.key, size, path: avatarPath(userId, file.mime) });
  }
  return found;
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
