import { SkipCounter } from '../../source/skip-counter.ts';
import type { ImportSource, SourceMessage } from '../../source/types.ts';
import { openDiscordFiles } from './export-root.ts';
import { readMessages } from './read-json.ts';
import { type ChannelFile, scanExport } from './scan.ts';
import { translateMessage } from './translate.ts';

/**
 * DiscordChatExporter's JSON: one `.json` file, or a folder (or zip) of them,
 * one per channel, direct conversation or thread, with their media beside
 * them when exported with media. Opening reads every file once (people,
 * channels, threads, emoji, what is skipped); `messages()` streams them again.
 */
export async function openDiscordExport(path: string): Promise<ImportSource> {
  const source = await openDiscordFiles(path);
  const skipped = new SkipCounter();
  const model = await scanExport(source, skipped).catch(async (err: unknown) => {
    await source.files.close();
    throw err;
  });

  async function* fileMessages(file: ChannelFile, index: number): AsyncGenerator<SourceMessage> {
    const context = model.context(file);
    for await (const message of readMessages(source.files, file.jsonName)) {
      if (message.id && model.spans.heldBefore(file.header.channel.id!, index, message.id)) continue;
      const { kept } = await translateMessage(message, context);
      if (!kept) continue;
      const thread = file.thread;
      if (thread?.rootKey && !(thread.rootIsFirst && kept.key === thread.rootKey)) kept.threadRootKey = thread.rootKey;
      yield kept;
    }
  }

  return {
    kind: 'discord',
    origin: model.origin,
    skipped,
    groups: async function* () {
      yield* model.groups;
    },
    users: async function* () {
      yield* model.users;
    },
    channels: async function* () {
      yield* model.channels;
    },
    messages: async function* () {
      for (const [index, file] of model.files.entries()) yield* fileMessages(file, index);
    },
    emoji: async function* () {
      for (const [name, file] of model.emoji) yield { name, open: () => source.files.open(file) };
    },
    close: () => source.files.close(),
  };
}
