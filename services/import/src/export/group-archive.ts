import type { mongo } from 'mongoose';
import type { ObjectStorage } from '@im/sdk';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  converseFilePath,
  emojiPath,
  GROUP_PATH,
  MANIFEST_PATH,
  type ArchiveConverse,
  type ArchiveGroup,
  type ArchiveManifest,
  type ArchiveMember,
} from '../archive/format.ts';
import { addFiles, addUsers } from './archive-parts.ts';
import type { ArchiveZip } from './archive-zip.ts';
import { ExportRefs, writeConverseMessages } from './converse-writer.ts';

type ObjectId = mongo.ObjectId;

interface StoredGroup {
  _id: ObjectId;
  name: string;
  ownerId: ObjectId;
  description?: string;
  visibility?: 'private' | 'public';
  createdAt?: Date;
  panels: Array<{
    _id: ObjectId;
    name: string;
    type: 'text' | 'voice';
    converseId: ObjectId;
    topic?: string;
    postingRole?: 'member' | 'admin';
    private?: boolean;
    allowUserIds?: ObjectId[];
    allowRoleIds?: ObjectId[];
  }>;
  roles?: Array<{ _id: ObjectId; name: string; color?: string; permissions: string[]; position: number }>;
}

const hex = (ids: ObjectId[] | undefined) => (ids ?? []).map((id) => id.toHexString());

/**
 * Writes a group's archive into `zip`: its panels' messages (one file per
 * converse, streamed), members, roles, custom emoji, users and attached
 * files, then the manifest. Reads the other services' collections directly;
 * false when the group is gone.
 */
export async function writeGroupArchive(
  db: mongo.Db,
  storage: ObjectStorage,
  zip: ArchiveZip,
  groupId: ObjectId,
  server: string,
): Promise<ArchiveManifest | null> {
  const group = await db.collection<StoredGroup>('groups').findOne({ _id: groupId });
  if (!group) return null;
  const refs = new ExportRefs();
  refs.userIds.add(group.ownerId.toHexString());

  const members: ArchiveMember[] = [];
  for await (const m of db
    .collection<{ userId: ObjectId; role: ArchiveMember['role']; roleIds?: ObjectId[]; joinedAt: Date }>('members')
    .find({ groupId }, { sort: { _id: 1 } })) {
    const userId = m.userId.toHexString();
    refs.userIds.add(userId);
    members.push({
      userId,
      role: m.role,
      ...(m.roleIds?.length ? { roleIds: hex(m.roleIds) } : {}),
      joinedAt: m.joinedAt.toISOString(),
    });
  }

  const converses: ArchiveConverse[] = [];
  let messages = 0;
  for (const panel of group.panels) {
    const id = panel.converseId.toHexString();
    const path = converseFilePath(id);
    const out = zip.jsonArray(path);
    await writeConverseMessages(db, panel.converseId, out, refs);
    const count = await out.end();
    messages += count;
    converses.push({ id, path, kind: 'panel', panelId: panel._id.toHexString(), name: panel.name, messages: count });
  }

  const emoji: ArchiveGroup['emoji'] = [];
  const emojiDocs = await db
    .collection<{ name: string; fileId: ObjectId }>('groupemojis')
    .find({ groupId }, { sort: { name: 1 } })
    .toArray();
  const emojiFiles = new Map(
    (
      await db
        .collection<{ _id: ObjectId; key: string; mime: string }>('files')
        .find({ _id: { $in: emojiDocs.map((e) => e.fileId) } })
        .toArray()
    ).map((f) => [f._id.toHexString(), f]),
  );
  for (const e of emojiDocs) {
    const file = emojiFiles.get(e.fileId.toHexString());
    const size = file ? await storage.size(file.key) : null;
    if (!file || size === null) continue;
    const path = emojiPath(e.name, file.mime);
    zip.addLazy(path, size, () => storage.get(file.key));
    emoji.push({ name: e.name, path });
  }

  const archived: ArchiveGroup = {
    id: group._id.toHexString(),
    name: group.name,
    ...(group.description ? { description: group.description } : {}),
    ...(group.visibility ? { visibility: group.visibility } : {}),
    ownerId: group.ownerId.toHexString(),
    createdAt: (group.createdAt ?? group._id.getTimestamp()).toISOString(),
    panels: group.panels.map((p) => ({
      id: p._id.toHexString(),
      name: p.name,
      type: p.type,
      converseId: p.converseId.toHexString(),
      ...(p.topic ? { topic: p.topic } : {}),
      ...(p.postingRole ? { postingRole: p.postingRole } : {}),
      ...(p.private
        ? { private: true as const, allowUserIds: hex(p.allowUserIds), allowRoleIds: hex(p.allowRoleIds) }
        : {}),
    })),
    roles: (group.roles ?? []).map((r) => ({
      id: r._id.toHexString(),
      name: r.name,
      ...(r.color ? { color: r.color } : {}),
      permissions: r.permissions,
      position: r.position,
    })),
    members,
    emoji,
  };
  zip.addJson(GROUP_PATH, archived);
  const users = await addUsers(db, storage, zip, refs.userIds);
  const files = await addFiles(zip, storage, refs);
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    kind: 'group',
    exportedAt: new Date().toISOString(),
    server,
    groupId: archived.id,
    converses,
    counts: { users, converses: converses.length, messages, files, emoji: emoji.length },
  };
  zip.addJson(MANIFEST_PATH, manifest);
  return manifest;
}
