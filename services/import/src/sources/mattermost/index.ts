import { createHash } from 'node:crypto';
import { SkipCounter } from '../../source/skip-counter.ts';
import type { ImportSource, SourceEmoji } from '../../source/types.ts';
import { scanExport, type ExportDirectory } from './directory.ts';
import { openMattermostFiles, type MattermostFiles } from './export-files.ts';
import { readExportLines } from './export-lines.ts';
import { readMessages } from './messages.ts';

/**
 * A Mattermost bulk export (`mmctl export create`, or a file written for
 * `mmctl import`): its `.jsonl`, a `.zip` holding it and its `data/` files,
 * or a folder holding both. Opening reads the whole file once for teams,
 * channels, people and emoji; `messages()` reads it again, streamed, each
 * time it is called.
 */
export async function openMattermostExport(path: string): Promise<ImportSource> {
  const files = await openMattermostFiles(path);
  try {
    const skipped = new SkipCounter();
    const directory = await scanExport(readExportLines(files), skipped);
    const emoji = await findEmojiImages(directory, files, skipped);
    return mattermostSource(files, directory, emoji, skipped);
  } catch (err) {
    await files.close();
    throw err;
  }
}

function mattermostSource(
  files: MattermostFiles,
  directory: ExportDirectory,
  emoji: SourceEmoji[],
  skipped: SkipCounter,
): ImportSource {
  const userKeys = new Set(directory.users.map((u) => u.key));
  let counted = false;
  return {
    kind: 'mattermost',
    origin: exportOrigin(directory),
    skipped,
    groups: () => each(directory.groups),
    users: () => each(directory.users),
    channels: () => each([...directory.channels.values()]),
    async *messages() {
      // Every pass meets the same skipped posts: the first pass read to the end counts them.
      const pass = new SkipCounter();
      yield* readMessages(readExportLines(files), {
        files,
        channels: directory.channels,
        isUser: (key) => userKeys.has(key),
        skipped: pass,
      });
      if (counted) return;
      counted = true;
      for (const [reason, count] of Object.entries(pass.toJSON())) skipped.add(reason, count);
    },
    emoji: () => each(emoji),
    close: () => files.close(),
  };
}

/**
 * The export's teams by name, sorted: a later export of the same server
 * lands on the same groups. An export of direct messages only has no team:
 * its people stand for it.
 */
function exportOrigin(directory: ExportDirectory): string {
  if (directory.groups.length > 0)
    return directory.groups
      .map((g) => g.key)
      .sort()
      .join(',');
  const people = directory.users
    .map((u) => u.key)
    .sort()
    .join(',');
  return `direct:${createHash('sha256').update(people).digest('hex').slice(0, 16)}`;
}

/** Custom emoji whose image the export holds; the others are counted and left out. */
async function findEmojiImages(directory: ExportDirectory, files: MattermostFiles, skipped: SkipCounter) {
  const found: SourceEmoji[] = [];
  for (const { name, image } of directory.emoji) {
    const file = image && (await files.find(image));
    if (file) found.push({ name, open: () => files.open(file) });
    else skipped.add('custom emoji image missing from the export');
  }
  return found;
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
