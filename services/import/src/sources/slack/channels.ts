import type { SourceChannel } from '../../source/types.ts';
import type { SlackChannel } from './export-shapes.ts';

/**
 * The conversation lists of an export, each present only in some exports:
 * `channels.json` (public channels: every export), `groups.json` (private
 * channels), `mpims.json` (group DMs) and `dms.json` (DMs) only in full
 * exports. A conversation's day files sit in a folder named after it:
 * channels and group DMs by name, DMs by id.
 */
export const CHANNEL_LISTS = [
  { file: 'channels.json', kind: 'public' },
  { file: 'groups.json', kind: 'private' },
  { file: 'mpims.json', kind: 'mpim' },
  { file: 'dms.json', kind: 'dm' },
] as const;

export type ListKind = (typeof CHANNEL_LISTS)[number]['kind'];

/** A listed conversation: what the writer gets, and the folder its day files are in. */
export interface ListedChannel {
  channel: SourceChannel;
  folder: string;
}

export function toListedChannel(
  entry: SlackChannel,
  kind: ListKind,
  groupKey: string,
  folders: ReadonlySet<string>,
): ListedChannel | undefined {
  if (!entry.id) return undefined;
  const name = entry.name || entry.id;
  const topic = entry.topic?.value || entry.purpose?.value;
  const dm = kind === 'mpim' || kind === 'dm';
  const channel: SourceChannel = {
    key: entry.id,
    ...(dm ? {} : { groupKey }),
    kind: dm ? 'dm' : kind,
    name,
    ...(topic ? { topic } : {}),
    memberKeys: [...new Set(entry.members ?? [])],
  };
  // Folders are named by name, DMs by id; either is accepted for any kind.
  const folder = entry.name && folders.has(entry.name) ? entry.name : entry.id;
  return { channel, folder };
}
