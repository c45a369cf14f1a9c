import { type ExportFiles, openExportFiles, readJson } from '../../source/export-files.ts';
import { SkipCounter } from '../../source/skip-counter.ts';
import type { ImportSource, SourceMessage, SourceUser } from '../../source/types.ts';
import { CHANNEL_LISTS, type ListedChannel, toListedChannel } from './channels.ts';
import { readDays } from './day-files.ts';
import { type ExportLayout, exportLayout } from './export-layout.ts';
import { exportRoot } from './export-root.ts';
import { cleanChannel, cleanUser } from './clean-shapes.ts';
import type { MrkdwnContext } from './mrkdwn.ts';
import { isPeoplesMessage, translateChannel } from './messages.ts';
import { authorKey, toSourceUser, userFromMessage } from './users.ts';
import { workspaceOf } from './workspace.ts';

/**
 * A Slack export: its `.zip` or the folder it unpacks to. The lists
 * (`users.json`, `channels.json`, ...) are read at once; messages are read a
 * day file at a time, on each pass.
 */
export async function openSlackExport(path: string): Promise<ImportSource> {
  const files = await openExportFiles(path);
  try {
    return await readExport(path, exportRoot(files));
  } catch (err) {
    await files.close();
    throw err;
  }
}

async function readExport(path: string, files: ExportFiles): Promise<ImportSource> {
  const skipped = new SkipCounter();
  const layout = exportLayout(files.names);
  const usersFile = files.has('users.json') ? 'users.json' : 'org_users.json';
  const slackUsers = await readList(files, usersFile, cleanUser, skipped);
  const lists = await Promise.all(
    CHANNEL_LISTS.map(async (list) => ({ ...list, entries: await readList(files, list.file, cleanChannel, skipped) })),
  );
  if (slackUsers.length === 0 && lists.every((l) => l.entries.length === 0) && layout.dayFiles.size === 0) {
    throw new Error(`${path} is not a Slack export: it has no users.json, channels.json or day files`);
  }
  const publicChannels = lists.find((l) => l.kind === 'public')?.entries ?? [];
  const workspace = workspaceOf(path, slackUsers, publicChannels);

  const folders = new Set(layout.dayFiles.keys());
  const listed = new Map<string, ListedChannel>();
  for (const list of lists) {
    for (const entry of list.entries) {
      const channel = toListedChannel(entry, list.kind, workspace.origin, folders);
      if (channel && !listed.has(channel.channel.key)) listed.set(channel.channel.key, channel);
    }
  }
  const channels = [...listed.values()];
  const readFolders = new Set(channels.map((c) => c.folder));
  const unlisted = [...folders].filter((f) => !readFolders.has(f)).sort();
  const channelNames = new Map(
    channels.filter((c) => c.channel.kind !== 'dm').map((c) => [c.channel.key, c.channel.name]),
  );
  const mrkdwn: MrkdwnContext = { channelName: (id) => channelNames.get(id) };

  const people = new Map<string, SourceUser>();
  for (const entry of slackUsers) {
    const user = toSourceUser(entry);
    if (user && !people.has(user.key)) people.set(user.key, user);
  }

  let passes = 0;
  const source: ImportSource = {
    kind: 'slack',
    origin: workspace.origin,
    skipped,
    async *groups() {
      yield { key: workspace.origin, name: workspace.name };
    },
    async *users() {
      yield* people.values();
      yield* authorsNotListed(files, layout, channels, people);
    },
    async *channels() {
      for (const { channel } of channels) yield channel;
    },
    async *messages(): AsyncIterable<SourceMessage> {
      // What is passed over is counted on the first pass only: the writer reads more than once.
      const counting = passes++ === 0 ? skipped : undefined;
      for (const { channel, folder } of channels) {
        const days = readDays(files, layout.dayFiles.get(folder) ?? [], counting);
        yield* translateChannel(
          { channelKey: channel.key, files, attachments: layout.attachments, mrkdwn, skipped: counting },
          days,
        );
      }
      if (counting) await countUnlisted(files, layout, unlisted, counting);
    },
    async *emoji() {
      for (const [name, file] of layout.emoji) yield { name, open: () => files.open(file) };
    },
    close: () => files.close(),
  };
  return source;
}

/** A list file; missing is empty (exports hold only some), unreadable is counted and empty. */
async function readList<T>(
  files: ExportFiles,
  name: string,
  clean: (raw: unknown) => T | undefined,
  skipped: SkipCounter,
): Promise<T[]> {
  if (!files.has(name)) return [];
  try {
    const list = await readJson<unknown>(files, name);
    if (Array.isArray(list)) return list.map(clean).filter((e) => e !== undefined);
  } catch {
    // counted below
  }
  skipped.add(`unreadable ${name}`);
  return [];
}

/**
 * Authors `users.json` does not list (bots posting through webhooks or old
 * integrations, people gone from the list), made from what their messages
 * say of them. One more pass over the messages, reading only authors.
 */
async function* authorsNotListed(
  files: ExportFiles,
  layout: ExportLayout,
  channels: readonly ListedChannel[],
  listed: ReadonlyMap<string, SourceUser>,
): AsyncIterable<SourceUser> {
  const made = new Set<string>();
  for (const { folder } of channels) {
    for await (const message of readDays(files, layout.dayFiles.get(folder) ?? [], undefined)) {
      const key = isPeoplesMessage(message) ? authorKey(message) : undefined;
      if (!key || listed.has(key) || made.has(key)) continue;
      const user = userFromMessage(key, message);
      if (!user) continue;
      made.add(key);
      yield user;
    }
  }
}

/**
 * Folders of day files that no list names: a conversation whose kind and
 * people are unknown (a private channel without `groups.json`, say). Its
 * messages are not imported, rather than shown to the whole group; counted.
 */
async function countUnlisted(
  files: ExportFiles,
  layout: ExportLayout,
  folders: readonly string[],
  skipped: SkipCounter,
): Promise<void> {
  for (const folder of folders) {
    for await (const _message of readDays(files, layout.dayFiles.get(folder) ?? [], skipped)) {
      skipped.add('message in a channel the export does not list');
    }
  }
}
