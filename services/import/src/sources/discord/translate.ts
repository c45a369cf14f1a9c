import type { Readable } from 'node:stream';
import type { SourceFile, SourceMessage, SourceReaction } from '../../source/types.ts';
import { assetName, isLink } from './asset-path.ts';
import { type DceEmoji, type DceMessage, isWrittenMessage } from './format.ts';
import { convertText, type TextContext } from './text.ts';

/** Why a message, or a part of one, is passed over (the reasons the import's summary counts). */
export const SKIP = {
  system: 'system message',
  incomplete: 'message without its id, time or author',
  linkedFile: 'file only linked, its media not exported',
  missingFile: 'file missing from the export',
  anonymousReaction: 'reaction without the people who reacted',
  twice: 'message in two files of one channel (overlapping exports)',
} as const;

/** What translating one message needs to know of the export around it. */
export interface MessageContext extends TextContext {
  jsonName: string;
  /** The panel the message lands in (a thread's messages land in its parent's). */
  channelKey: string;
  /** Whether the export holds that media file. */
  exists(name: string): Promise<boolean>;
  open(name: string): Promise<Readable | undefined>;
}

export type Translated = { kept: SourceMessage; skippedParts: string[] } | { kept?: undefined; skipped: string };

/**
 * One exported message as the writer takes it, or why it is passed over.
 * Pure apart from looking up which media files exist, so the same message
 * comes out the same on every read of the export.
 */
export async function translateMessage(message: DceMessage, context: MessageContext): Promise<Translated> {
  if (!isWrittenMessage(message)) return { skipped: SKIP.system };
  const createdAt = parseDate(message.timestamp);
  const authorKey = message.author?.id;
  if (!message.id || !createdAt || !authorKey) return { skipped: SKIP.incomplete };
  const skippedParts: string[] = [];
  const files: SourceFile[] = [];
  for (const attachment of message.attachments ?? []) {
    const name = assetName(context.jsonName, attachment.url);
    if (isLink(attachment.url)) skippedParts.push(SKIP.linkedFile);
    else if (!name || !(await context.exists(name))) skippedParts.push(SKIP.missingFile);
    else
      files.push({
        key: attachment.id || `${message.id}/${name}`,
        name: attachment.fileName || name.slice(name.lastIndexOf('/') + 1),
        open: () => context.open(name),
      });
  }
  const reactions: SourceReaction[] = [];
  for (const reaction of message.reactions ?? []) {
    const emoji = reactionEmoji(reaction.emoji);
    const userKeys = [...new Set((reaction.users ?? []).map((u) => u.id).filter((id): id is string => !!id))];
    if (!emoji || userKeys.length === 0) skippedParts.push(SKIP.anonymousReaction);
    else reactions.push({ emoji, userKeys });
  }
  const editedAt = parseDate(message.timestampEdited);
  const replyToKey = message.type === 'Reply' || message.type === '19' ? message.reference?.messageId : undefined;
  const kept: SourceMessage = {
    key: message.id,
    channelKey: context.channelKey,
    authorKey,
    createdAt,
    text: convertText(message.content ?? '', message.mentions ?? [], context),
    reactions,
    files,
    ...(editedAt && { editedAt }),
    ...(replyToKey && { replyToKey }),
    ...(message.isPinned === true && { pinned: true }),
  };
  return { kept, skippedParts };
}

/** A standard emoji as its character(s); a server's custom emoji by its name (no colons). */
export function reactionEmoji(emoji: DceEmoji | undefined): string | undefined {
  const name = emoji?.name?.trim();
  if (!name) return undefined;
  return emoji?.id ? name.replace(/^:|:$/g, '') : name;
}

function parseDate(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
