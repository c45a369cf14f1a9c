import type { ConverseAccess, Message } from '@im/protocol';
import type { ConverseAudience, CreatedAudience } from '@im/sdk';
import type { MessageDoc } from '../models.ts';
import { pollView } from '../polls/poll-views.ts';

/** The public message; `myEmojis` are the caller's own reactions on it, `myVotes` their votes in its poll. */
export function toMessage(doc: MessageDoc, myEmojis: ReadonlySet<string> = new Set(), myVotes: number[] = []): Message {
  return {
    id: doc._id.toHexString(),
    converseId: doc.converseId.toHexString(),
    seq: doc.seq,
    authorId: doc.authorId.toHexString(),
    content: doc.deleted ? '' : doc.content,
    createdAt: doc.createdAt.toISOString(),
    ...(doc.editedAt ? { editedAt: doc.editedAt.toISOString() } : {}),
    ...(doc.deleted ? { deleted: true as const } : {}),
    reactions: Object.entries(doc.reactionCounts ?? {})
      .filter(([, count]) => count > 0)
      .map(([emoji, count]) => ({ emoji, count, me: myEmojis.has(emoji) })),
    mentions: doc.deleted ? [] : doc.mentions.map((id) => id.toHexString()),
    attachments: doc.deleted ? [] : doc.attachments.map((id) => id.toHexString()),
    ...(doc.replyTo ? { replyTo: doc.replyTo.toHexString() } : {}),
    ...(doc.clientMsgId ? { clientMsgId: doc.clientMsgId } : {}),
    ...(doc.username ? { username: doc.username } : {}),
    ...(doc.emote ? { emote: true as const } : {}),
    ...(doc.call ? { call: { outcome: doc.call.outcome, durationSec: doc.call.durationSec } } : {}),
    ...(doc.mentionsAll && !doc.deleted ? { mentionsAll: true as const } : {}),
    ...(doc.mentionsHere && !doc.deleted ? { mentionsHere: true as const } : {}),
    ...(doc.threadId ? { threadId: doc.threadId.toHexString() } : {}),
    ...(doc.thread ? { thread: threadView(doc.thread) } : {}),
    ...(doc.preview && !doc.deleted ? { preview: previewView(doc.preview) } : {}),
    ...(doc.poll && !doc.deleted ? { poll: pollView(doc.poll, myVotes) } : {}),
    ...(doc.pinned ? { pinned: { by: doc.pinned.by.toHexString(), at: doc.pinned.at.toISOString() } } : {}),
    ...(doc.forwarded ? { forwarded: forwardedView(doc.forwarded) } : {}),
  };
}

const forwardedView = (f: NonNullable<MessageDoc['forwarded']>) => ({
  messageId: f.messageId.toHexString(),
  converseId: f.converseId.toHexString(),
  authorId: f.authorId.toHexString(),
  createdAt: f.createdAt.toISOString(),
});

const threadView = (t: NonNullable<MessageDoc['thread']>) => ({
  replyCount: t.replyCount,
  lastReplyAt: t.lastReplyAt.toISOString(),
  participantIds: t.participantIds.map((id) => id.toHexString()),
});

const previewView = ({ imageFileId, ...card }: NonNullable<MessageDoc['preview']>) => ({
  ...card,
  ...(imageFileId ? { imageFileId: imageFileId.toHexString() } : {}),
});

/**
 * Which kind of converse an event is about; a DM's names its two members, so
 * gateways can reach them without a lookup. No access (an author who left)
 * is a group panel's: a DM's members never change.
 */
export const audience = (access: ConverseAccess | null): ConverseAudience =>
  access?.kind === 'dm' ? { kind: 'dm', memberIds: access.memberIds } : { kind: 'group' };

/** A new message's audience: a group panel's names its group too (integrations pick their hooks by it). */
export const createdAudience = (access: ConverseAccess): CreatedAudience =>
  access.kind === 'dm' ? { kind: 'dm', memberIds: access.memberIds } : { kind: 'group', groupId: access.groupId };
