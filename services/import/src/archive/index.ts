import StreamArray from 'stream-json/streamers/StreamArray.js';
import { openExportFiles, readJson, type ExportFiles } from '../source/export-files.ts';
import { mentionToken } from '../source/mention-token.ts';
import { SkipCounter } from '../source/skip-counter.ts';
import type {
  ImportSource,
  SourceChannel,
  SourceEmoji,
  SourceGroup,
  SourceMessage,
  SourceUser,
} from '../source/types.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  GROUP_PATH,
  MANIFEST_PATH,
  USERS_PATH,
  type ArchiveGroup,
  type ArchiveManifest,
  type ArchiveMessage,
  type ArchiveUser,
} from './format.ts';

/** Why an archive cannot be read back (the command line prints the message). */
export class ImArchiveError extends Error {
  override readonly name = 'ImArchiveError';
}

/**
 * This platform's own export archive, read back. Only a group's archive: a
 * personal one holds a person's side of things (their own messages in
 * panels, their DMs) and is for keeping, not for making a group again, so
 * it is refused with a clear error. Keys are the archive's own ids; the
 * origin is the exporting server and the group's id, so the same archive
 * imported twice lands on the same documents.
 */
export async function openImArchive(path: string): Promise<ImportSource> {
  const files = await openExportFiles(path);
  try {
    const manifest = await readJson<ArchiveManifest>(files, MANIFEST_PATH).catch(() => undefined);
    if (!manifest || manifest.format !== ARCHIVE_FORMAT)
      throw new ImArchiveError(
        `not an export archive of this platform (no ${MANIFEST_PATH} of format ${ARCHIVE_FORMAT})`,
      );
    if (typeof manifest.version !== 'number' || manifest.version > ARCHIVE_VERSION)
      throw new ImArchiveError(
        `archive format version ${String(manifest.version)} is newer than this server reads (${ARCHIVE_VERSION})`,
      );
    if (manifest.kind !== 'group')
      throw new ImArchiveError(
        'this is a personal export (one person’s own data): only a group’s export can be imported',
      );
    const group = await readJson<ArchiveGroup>(files, GROUP_PATH);
    if (!group) throw new ImArchiveError(`the archive has no ${GROUP_PATH}`);
    const usernames = new Map<string, string>();
    for await (const user of streamArray<ArchiveUser>(files, USERS_PATH)) usernames.set(user.id, user.username);
    return new ImArchiveSource(files, manifest, group, usernames);
  } catch (err) {
    await files.close();
    throw err;
  }
}

async function* streamArray<T>(files: ExportFiles, name: string): AsyncGenerator<T> {
  const stream = await files.open(name);
  if (!stream) return;
  const items = stream.pipe(StreamArray.withParser());
  for await (const item of items as AsyncIterable<{ value: T }>) yield item.value;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

class ImArchiveSource implements ImportSource {
  readonly kind = 'im' as const;
  readonly origin: string;
  readonly skipped = new SkipCounter();
  readonly #files: ExportFiles;
  readonly #group: ArchiveGroup;
  readonly #usernames: Map<string, string>;
  /** The panels read back (voice panels are not: an import makes text panels). */
  readonly #channels: SourceChannel[];
  /** The converse files of those panels that the archive holds. */
  readonly #converses: ArchiveManifest['converses'];

  constructor(files: ExportFiles, manifest: ArchiveManifest, group: ArchiveGroup, usernames: Map<string, string>) {
    this.#files = files;
    this.#group = group;
    this.#usernames = usernames;
    this.origin = `${manifest.server}/${group.id}`;
    const everyone = group.members.map((m) => m.userId);
    const staff = group.members.filter((m) => m.role !== 'member').map((m) => m.userId);
    this.#channels = [];
    for (const panel of group.panels) {
      if (panel.type !== 'text') {
        this.skipped.add('voice panel');
        continue;
      }
      let memberKeys = everyone;
      if (panel.private) {
        const roles = new Set(panel.allowRoleIds ?? []);
        const holders = group.members.filter((m) => m.roleIds?.some((r) => roles.has(r))).map((m) => m.userId);
        memberKeys = [...new Set([...staff, ...(panel.allowUserIds ?? []), ...holders])];
      }
      this.#channels.push({
        key: panel.converseId,
        groupKey: group.id,
        kind: panel.private ? 'private' : 'public',
        name: panel.name,
        ...(panel.topic ? { topic: panel.topic } : {}),
        memberKeys,
      });
    }
    // Counted once here: messages() runs more than once.
    const kept = new Set(this.#channels.map((c) => c.key));
    this.#converses = manifest.converses.filter((c) => kept.has(c.id) && files.has(c.path));
    for (const converse of manifest.converses) {
      if (kept.has(converse.id) && !files.has(converse.path))
        this.skipped.add('converse file missing from the archive', converse.messages);
    }
  }

  async *groups(): AsyncIterable<SourceGroup> {
    const g = this.#group;
    yield { key: g.id, name: g.name, ...(g.description ? { description: g.description } : {}) };
  }

  async *users(): AsyncIterable<SourceUser> {
    for await (const u of streamArray<ArchiveUser>(this.#files, USERS_PATH)) {
      yield {
        key: u.id,
        username: u.username,
        displayName: u.nickname,
        ...(u.email ? { email: u.email } : {}),
        ...(u.deleted ? { deleted: true } : {}),
        ...(u.bot ? { bot: true } : {}),
      };
    }
  }

  async *channels(): AsyncIterable<SourceChannel> {
    yield* this.#channels;
  }

  async *messages(): AsyncIterable<SourceMessage> {
    for (const converse of this.#converses) {
      for await (const m of streamArray<ArchiveMessage>(this.#files, converse.path))
        yield this.#message(converse.id, m);
    }
  }

  async *emoji(): AsyncIterable<SourceEmoji> {
    for (const e of this.#group.emoji) {
      yield { name: e.name, open: () => this.#files.open(e.path) };
    }
  }

  close(): Promise<void> {
    return this.#files.close();
  }

  #message(channelKey: string, m: ArchiveMessage): SourceMessage {
    return {
      key: m.id,
      channelKey,
      authorKey: m.authorId,
      createdAt: new Date(m.createdAt),
      ...(m.editedAt ? { editedAt: new Date(m.editedAt) } : {}),
      text: this.#withMentionTokens(m.text, m.mentions ?? []),
      ...(m.threadId ? { threadRootKey: m.threadId } : {}),
      ...(m.replyTo ? { replyToKey: m.replyTo } : {}),
      reactions: m.reactions.map((r) => ({ emoji: r.emoji.replace(/^:(.+):$/, '$1'), userKeys: r.userIds })),
      ...(m.pinned ? { pinned: true } : {}),
      files: m.attachments.map((a) => ({ key: a.id, name: a.name, open: () => this.#files.open(a.path) })),
    };
  }

  /** `@username` of each person the message mentions becomes that person's token (the writer names them anew). */
  #withMentionTokens(text: string, mentions: string[]): string {
    let out = text;
    for (const id of mentions) {
      const username = this.#usernames.get(id);
      if (!username) continue;
      // A name goes on while letters, digits, `_`, `-` or a `.` before one of those follow (a full stop ends it).
      out = out.replace(new RegExp(`@${escapeRegExp(username)}(?![\\w-]|\\.[\\w-])`, 'gi'), mentionToken(id));
    }
    return out;
  }
}
