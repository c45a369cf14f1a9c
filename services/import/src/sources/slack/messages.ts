import type { ExportFiles } from '../../source/export-files.ts';
import type { SkipCounter } from '../../source/skip-counter.ts';
import type { SourceFile, SourceMessage, SourceReaction } from '../../source/types.ts';
import type { SlackFile, SlackMessage, SlackReaction } from './export-shapes.ts';
import { type MrkdwnContext, mrkdwnToMarkdown } from './mrkdwn.ts';
import { isSlackTs, slackTsToDate } from './slack-time.ts';
import { authorKey } from './users.ts';

/**
 * Subtypes that are people's (or bots') messages. Every other subtype is
 * Slack's own notice of something that happened (`channel_join`,
 * `channel_topic`, `pinned_item`...): the event itself is already in the
 * import (members, topic, pins), so the notice is passed over.
 */
const KEPT_SUBTYPES = new Set(['bot_message', 'file_share', 'thread_broadcast', 'reply_broadcast', 'me_message']);

/** A message someone wrote, as opposed to Slack's notice of an event. */
export const isPeoplesMessage = (message: SlackMessage): boolean =>
  (!message.type || message.type === 'message') && (!message.subtype || KEPT_SUBTYPES.has(message.subtype));

/** What translating the messages of one conversation needs. */
export interface ChannelReading {
  channelKey: string;
  files: ExportFiles;
  /** Paths of attached files' bytes by Slack file id. */
  attachments: ReadonlyMap<string, string>;
  mrkdwn: MrkdwnContext;
  /** Where to count what is passed over; undefined on passes that must not count again. */
  skipped: SkipCounter | undefined;
}

/** The messages of one conversation, in order, translated. */
export async function* translateChannel(
  reading: ChannelReading,
  messages: AsyncIterable<SlackMessage>,
): AsyncIterable<SourceMessage> {
  for await (const message of messages) {
    const translated = translateMessage(reading, message);
    if (translated) yield translated;
  }
}

function translateMessage(reading: ChannelReading, message: SlackMessage): SourceMessage | undefined {
  const skip = (reason: string): undefined => void reading.skipped?.add(reason);
  if (!isPeoplesMessage(message)) {
    return skip(message.subtype === 'tombstone' ? 'deleted message' : 'system message');
  }
  const ts = message.ts;
  const createdAt = slackTsToDate(ts);
  if (!isSlackTs(ts) || !createdAt) return skip('message without a valid ts');
  const author = authorKey(message);
  if (!author) return skip('message without an author');

  const files = keptFiles(reading, message, ts);
  let text = mrkdwnToMarkdown(message.text ?? '', reading.mrkdwn);
  if (!text.trim()) text = fallbackText(reading, message);
  if (!text.trim() && files.length === 0) return skip('empty message');

  // `thread_ts` names the thread's root by its `ts` (on the root itself it
  // is its own). Whether that root is in the export (it may be older than
  // the export's dates, or a notice passed over) is the writer's to see: a
  // reply without its root becomes a message of the channel.
  const replyTo = message.thread_ts;
  const isReply = isSlackTs(replyTo) && replyTo !== ts;
  const editedAt = slackTsToDate(message.edited?.ts);
  return {
    key: `${reading.channelKey}:${ts}`,
    channelKey: reading.channelKey,
    authorKey: author,
    createdAt,
    ...(editedAt ? { editedAt } : {}),
    text,
    ...(isReply ? { threadRootKey: `${reading.channelKey}:${replyTo}` } : {}),
    reactions: reactions(message.reactions),
    ...(message.pinned_to?.includes(reading.channelKey) ? { pinned: true } : {}),
    ...(message.subtype === 'me_message' ? { emote: true } : {}),
    files,
  };
}

/**
 * The message's files whose bytes the export holds. Slack's own export only
 * links to them; a file not here is counted, never fetched.
 */
function keptFiles(reading: ChannelReading, message: SlackMessage, ts: string): SourceFile[] {
  const listed: SlackFile[] = [...(message.files ?? []), ...(message.file ? [message.file] : [])];
  const kept: SourceFile[] = [];
  for (const file of listed) {
    const path = file.id ? reading.attachments.get(file.id) : undefined;
    if (!file.id || !path) {
      reading.skipped?.add(file.mode === 'tombstone' ? 'file deleted at the source' : 'file missing from the export');
      continue;
    }
    const { files } = reading;
    kept.push({
      // One file may be shared in several messages: keyed per message, so each keeps its own.
      key: `${reading.channelKey}:${ts}:${file.id}`,
      name: file.name || file.title || file.id,
      open: () => files.open(path),
    });
  }
  return kept;
}

/**
 * Text for a message that has none of its own: a bot's card (`attachments`),
 * else the names of files the export does not hold, so the message still
 * says what it was.
 */
function fallbackText(reading: ChannelReading, message: SlackMessage): string {
  const cards = (message.attachments ?? [])
    .map((card) => [card.pretext, card.text || card.fallback].filter(Boolean).join('\n'))
    .filter(Boolean);
  if (cards.length > 0) return mrkdwnToMarkdown(cards.join('\n\n'), reading.mrkdwn);
  const names = [...(message.files ?? []), ...(message.file ? [message.file] : [])]
    .filter((file) => !file.id || !reading.attachments.has(file.id))
    .map((file) => file.name || file.title)
    .filter(Boolean);
  return names.length > 0 ? `*${names.join(', ')}* (file not in the export)` : '';
}

/**
 * Reactions by emoji name. A skin tone is written after the name
 * (`+1::skin-tone-2`): the base emoji is kept, so reactions that differ only
 * in tone count together.
 */
function reactions(list: SlackReaction[] | undefined): SourceReaction[] {
  const byEmoji = new Map<string, Set<string>>();
  for (const reaction of list ?? []) {
    const emoji = reaction.name?.split('::')[0];
    if (!emoji || !reaction.users?.length) continue;
    const users = byEmoji.get(emoji) ?? new Set<string>();
    for (const user of reaction.users) users.add(user);
    byEmoji.set(emoji, users);
  }
  return [...byEmoji].map(([emoji, users]) => ({ emoji, userKeys: [...users] }));
}
