import { pipeline } from 'node:stream';
import StreamJson from 'stream-json';
import Ignore from 'stream-json/filters/Ignore.js';
import StreamObject from 'stream-json/streamers/StreamObject.js';
import { topLevelArrayItems } from './array-items.ts';
import type { ExportFiles } from '../../source/export-files.ts';
import type { DceChannel, DceGuild, DceMessage } from './format.ts';

export interface DceHeader {
  guild: DceGuild;
  channel: DceChannel;
}

const done = (): void => undefined;

/**
 * The file's `guild` and `channel`, read from its start: they come before
 * the messages, so reading stops there. Undefined when the file is not a
 * DiscordChatExporter export (or not JSON at all).
 */
export async function readHeader(files: ExportFiles, name: string): Promise<DceHeader | undefined> {
  const source = await files.open(name);
  if (!source) return undefined;
  const fields = pipeline(
    source,
    StreamJson.parser({ streamValues: false }),
    Ignore.ignore({ filter: 'messages' }),
    StreamObject.streamObject(),
    done,
  );
  let guild: DceGuild | undefined;
  let channel: DceChannel | undefined;
  try {
    for await (const { key, value } of fields as AsyncIterable<{ key: string; value: unknown }>) {
      if (key === 'guild' && isObject(value)) guild = value;
      if (key === 'channel' && isObject(value)) channel = value;
      if (guild && channel) break;
    }
  } catch {
    return undefined;
  } finally {
    fields.destroy();
  }
  return guild && channel && typeof channel.id === 'string' ? { guild, channel } : undefined;
}

/**
 * The file's messages one at a time, never the whole array in memory. A file
 * cut short or broken ends its messages where the damage starts (the same
 * place on every read): `onBroken` hears of it.
 */
export async function* readMessages(
  files: ExportFiles,
  name: string,
  onBroken: () => void = done,
): AsyncGenerator<DceMessage> {
  const source = await files.open(name);
  if (!source) return;
  try {
    for await (const value of topLevelArrayItems(source, 'messages')) if (isObject(value)) yield value as DceMessage;
  } catch {
    onBroken();
  } finally {
    source.destroy();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
