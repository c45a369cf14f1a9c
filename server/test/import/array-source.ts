import { Readable } from 'node:stream';
import type { ImportKind } from '@im/protocol';
import {
  SkipCounter,
  type ImportSource,
  type SourceChannel,
  type SourceEmoji,
  type SourceGroup,
  type SourceMessage,
  type SourceUser,
} from '@im/service-import';

/** An export held in arrays: what a reader would yield, for testing the writer on its own. */
export function arraySource(
  data: {
    groups: SourceGroup[];
    users: SourceUser[];
    channels: SourceChannel[];
    messages: SourceMessage[];
    emoji?: Array<{ name: string; bytes?: Buffer }>;
  },
  origin = 'test-origin',
  kind: ImportKind = 'slack',
): ImportSource {
  const each = <T>(items: readonly T[]) =>
    async function* () {
      yield* items;
    };
  return {
    kind,
    origin,
    skipped: new SkipCounter(),
    groups: each(data.groups),
    users: each(data.users),
    channels: each(data.channels),
    messages: each(data.messages),
    emoji: each(
      (data.emoji ?? []).map((e): SourceEmoji => ({
        name: e.name,
        open: async () => (e.bytes ? Readable.from([e.bytes]) : undefined),
      })),
    ),
    close: async () => undefined,
  };
}

/** A message with the fields a test does not care about filled in. */
export function message(
  m: Partial<SourceMessage> & Pick<SourceMessage, 'key' | 'channelKey' | 'authorKey' | 'text'> & { at: string },
): SourceMessage {
  const { at, ...rest } = m;
  return { createdAt: new Date(at), reactions: [], files: [], ...rest };
}
