/**
 * This platform's export archive (a zip), as written by `../export/` and
 * read back by `./index.ts`. Documented for people in docs/import-export.md
 * ("Export archives"); a change here is a change of `ARCHIVE_VERSION`.
 *
 *   manifest.json              ArchiveManifest
 *   group.json                 ArchiveGroup (group exports)
 *   users.json                 ArchiveUser[]
 *   converses/<converseId>.json  ArchiveMessage[] in seq order
 *   files/<fileId>/<name>      attached files
 *   emoji/<name>.<ext>         the group's custom emoji
 *   avatars/<userId>.<ext>     profile pictures stored on this server
 */
export const ARCHIVE_FORMAT = 'im-export';
export const ARCHIVE_VERSION = 1;

export const MANIFEST_PATH = 'manifest.json';
export const GROUP_PATH = 'group.json';
export const USERS_PATH = 'users.json';
export const converseFilePath = (converseId: string) => `converses/${converseId}.json`;
export const attachmentPath = (fileId: string, name: string) => `files/${fileId}/${safeName(name)}`;
export const emojiPath = (name: string, mime: string) => `emoji/${name}.${IMAGE_EXTENSIONS[mime] ?? 'bin'}`;
export const avatarPath = (userId: string, mime: string) => `avatars/${userId}.${IMAGE_EXTENSIONS[mime] ?? 'bin'}`;

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
  'image/avif': 'avif',
};

/** A stored name as one path segment of the zip (no separators, no dot-only names). */
function safeName(name: string): string {
  const cleaned = [...name]
    .map((c) => (c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 ? '_' : c))
    .join('')
    .slice(0, 200);
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'file' : cleaned;
}

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  kind: 'group' | 'personal';
  exportedAt: string;
  /** The exporting server (its PUBLIC_URL, else its host name): with the group's id, the origin of a re-import. */
  server: string;
  /** Group exports: the group. */
  groupId?: string;
  /** Personal exports: whose data it is. */
  userId?: string;
  converses: ArchiveConverse[];
  counts: { users: number; converses: number; messages: number; files: number; emoji: number };
}

export interface ArchiveConverse {
  id: string;
  /** Its file in the archive. */
  path: string;
  kind: 'panel' | 'dm';
  /** Panels: the panel's id and name; in a personal export also its group's. */
  panelId?: string;
  name?: string;
  groupId?: string;
  groupName?: string;
  /** DMs: who is in it. */
  memberIds?: string[];
  /** Personal exports of a group's panel: only the person's own messages are in it. */
  onlyOwnMessages?: true;
  messages: number;
}

export interface ArchiveGroup {
  id: string;
  name: string;
  description?: string;
  visibility?: 'private' | 'public';
  ownerId: string;
  createdAt: string;
  panels: ArchivePanel[];
  roles: ArchiveRole[];
  members: ArchiveMember[];
  emoji: ArchiveEmoji[];
}

export interface ArchivePanel {
  id: string;
  name: string;
  type: 'text' | 'voice';
  converseId: string;
  topic?: string;
  postingRole?: 'member' | 'admin';
  /** Seen only by the owner, admins, holders of `allowRoleIds` and `allowUserIds`. */
  private?: true;
  allowUserIds?: string[];
  allowRoleIds?: string[];
}

export interface ArchiveRole {
  id: string;
  name: string;
  color?: string;
  permissions: string[];
  position: number;
}

export interface ArchiveMember {
  userId: string;
  role: 'owner' | 'admin' | 'member';
  roleIds?: string[];
  joinedAt: string;
}

export interface ArchiveEmoji {
  name: string;
  path: string;
}

export interface ArchiveUser {
  id: string;
  username: string;
  nickname: string;
  /** Only in a personal export, and only the person's own. */
  email?: string;
  /** Their profile picture in the archive, when it is stored on this server. */
  avatar?: string;
  deleted?: true;
  bot?: true;
}

export interface ArchiveMessage {
  id: string;
  seq: number;
  authorId: string;
  createdAt: string;
  editedAt?: string;
  /** Markdown, as stored: a mention of a person is `@username` and the person's id is in `mentions`. */
  text: string;
  mentions?: string[];
  /** A thread reply: its root's id. */
  threadId?: string;
  /** A reply quoting another message. */
  replyTo?: string;
  reactions: Array<{ emoji: string; userIds: string[] }>;
  pinned?: true;
  attachments: Array<{ id: string; name: string; path: string }>;
}
