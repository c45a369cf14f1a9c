import type { mongo } from 'mongoose';
import type { ObjectStorage } from '@im/sdk';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  attachmentPath,
  converseFilePath,
  MANIFEST_PATH,
  type ArchiveConverse,
  type ArchiveManifest,
} from '../archive/format.ts';
import { addFiles, addUsers } from './archive-parts.ts';
import type { ArchiveZip } from './archive-zip.ts';
import { ExportRefs, writeConverseMessages } from './converse-writer.ts';

type ObjectId = mongo.ObjectId;

/**
 * Writes one person's archive into `zip`: their profile (with their e-mail),
 * every DM they are in (both sides: the conversation is theirs), their own
 * messages in the panels of the groups they are in now, and every file they
 * uploaded, then the manifest.
 */
export async function writePersonalArchive(
  db: mongo.Db,
  storage: ObjectStorage,
  zip: ArchiveZip,
  userId: ObjectId,
  server: string,
): Promise<ArchiveManifest> {
  const me = userId.toHexString();
  const refs = new ExportRefs();
  refs.userIds.add(me);
  const converses: ArchiveConverse[] = [];
  let messages = 0;
  const write = async (entry: Omit<ArchiveConverse, 'path' | 'messages'>, converseId: ObjectId, onlyMine: boolean) => {
    const path = converseFilePath(entry.id);
    const out = zip.jsonArray(path);
    await writeConverseMessages(db, converseId, out, refs, onlyMine ? userId : undefined);
    const count = await out.end();
    messages += count;
    converses.push({ ...entry, path, messages: count });
  };

  const dms = db
    .collection<{ _id: ObjectId; memberIds: ObjectId[] }>('converses')
    .find({ memberIds: userId, type: 'dm' }, { sort: { _id: 1 } });
  for await (const dm of dms) {
    const memberIds = dm.memberIds.map((id) => id.toHexString());
    for (const id of memberIds) refs.userIds.add(id);
    await write({ id: dm._id.toHexString(), kind: 'dm', memberIds }, dm._id, false);
  }

  const groupIds = (
    await db
      .collection<{ groupId: ObjectId }>('members')
      .find({ userId }, { projection: { groupId: 1 }, sort: { groupId: 1 } })
      .toArray()
  ).map((m) => m.groupId);
  const groups = db
    .collection<{ _id: ObjectId; name: string; panels: Array<{ _id: ObjectId; name: string; converseId: ObjectId }> }>(
      'groups',
    )
    .find({ _id: { $in: groupIds } }, { sort: { _id: 1 }, projection: { name: 1, panels: 1 } });
  for await (const group of groups) {
    for (const panel of group.panels) {
      const entry = {
        id: panel.converseId.toHexString(),
        kind: 'panel' as const,
        panelId: panel._id.toHexString(),
        name: panel.name,
        groupId: group._id.toHexString(),
        groupName: group.name,
        onlyOwnMessages: true as const,
      };
      await write(entry, panel.converseId, true);
    }
  }

  // Every file they uploaded, attached somewhere or not.
  const uploads = db
    .collection<{ _id: ObjectId; name: string; key: string; size: number }>('files')
    .find({ uploaderId: userId }, { projection: { name: 1, key: 1, size: 1 }, sort: { _id: 1 } });
  for await (const file of uploads) {
    const id = file._id.toHexString();
    refs.files.set(id, { key: file.key, size: file.size, path: attachmentPath(id, file.name) });
  }

  const users = await addUsers(db, storage, zip, refs.userIds, me);
  const files = await addFiles(zip, storage, refs);
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    kind: 'personal',
    exportedAt: new Date().toISOString(),
    server,
    userId: me,
    converses,
    counts: { users, converses: converses.length, messages, files, emoji: 0 },
  };
  zip.addJson(MANIFEST_PATH, manifest);
  return manifest;
}
