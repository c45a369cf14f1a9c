import { posix } from 'node:path';
import type { SkipCounter } from '../../source/skip-counter.ts';
import type { SourceChannel, SourceFile, SourceMessage, SourceReaction } from '../../source/types.ts';
import { directChannelKey, directMembers, teamChannelKey } from './channel-keys.ts';
import type { MattermostFiles } from './export-files.ts';
import type { ExportLine } from './records.ts';
import { millis, records, text, texts, usernameKey, type MattermostRecord } from './records.ts';
import type { UnreadableLine } from './export-lines.ts';
import { convertMentions } from './mentions.ts';
import { PostPositions, postKey, replyKey } from './post-keys.ts';

export interface MessageContext {
  files: MattermostFiles;
  channels: ReadonlyMap<string, SourceChannel>;
  isUser: (key: string) => boolean;
  /** Where this pass counts what it passes over. */
  skipped: SkipCounter;
}

/**
 * Every post and direct post of the export, each followed by its replies
 * (`threadRootKey`), in file order. Lines the first scan already counted
 * (unreadable ones, other types) are passed over without counting again.
 */
export async function* readMessages(
  lines: AsyncIterable<ExportLine | UnreadableLine>,
  ctx: MessageContext,
): AsyncGenerator<SourceMessage> {
  const positions = new PostPositions();
  for await (const line of lines) {
    if ('unreadable' in line || (line.type !== 'post' && line.type !== 'direct_post')) continue;
    const post = line.record;
    const channelKey = line.type === 'post' ? teamChannel(post, ctx) : directChannel(post, ctx);
    if (!channelKey) continue;
    const replies = records(post.replies);
    if (text(post.type)?.startsWith('system_')) {
      ctx.skipped.add('system message', 1 + replies.length);
      continue;
    }
    const user = usernameKey(post.user);
    const createAt = millis(post.create_at);
    if (!user || !createAt) {
      ctx.skipped.add('post without an author or a time', 1 + replies.length);
      continue;
    }
    const key = postKey(channelKey, createAt, user, positions.next(channelKey, createAt, user));
    yield await message(post, { key, channelKey, authorKey: user, createdAt: createAt }, ctx);

    const replyPositions = new PostPositions();
    for (const reply of replies) {
      const replyUser = usernameKey(reply.user);
      const replyAt = millis(reply.create_at);
      if (!replyUser || !replyAt) {
        ctx.skipped.add('post without an author or a time');
        continue;
      }
      const position = replyPositions.next(replyAt, replyUser);
      const head = {
        key: replyKey(key, replyAt, replyUser, position),
        channelKey,
        authorKey: replyUser,
        createdAt: replyAt,
      };
      yield { ...(await message(reply, head, ctx)), threadRootKey: key };
    }
  }
}

function teamChannel(post: MattermostRecord, ctx: MessageContext): string | undefined {
  const team = text(post.team)?.trim();
  const channel = text(post.channel)?.trim();
  const key = team && channel ? teamChannelKey(team, channel) : undefined;
  if (key && ctx.channels.has(key)) return key;
  ctx.skipped.add('post in a channel the export does not list', 1 + records(post.replies).length);
  return undefined;
}

function directChannel(post: MattermostRecord, ctx: MessageContext): string | undefined {
  const members = directMembers(texts(post.channel_members));
  if (members.length >= 2) return directChannelKey(members);
  ctx.skipped.add('direct messages with oneself', 1 + records(post.replies).length);
  return undefined;
}

interface MessageHead {
  key: string;
  channelKey: string;
  authorKey: string;
  createdAt: number;
}

async function message(post: MattermostRecord, head: MessageHead, ctx: MessageContext): Promise<SourceMessage> {
  const editAt = millis(post.edit_at);
  return {
    key: head.key,
    channelKey: head.channelKey,
    authorKey: head.authorKey,
    createdAt: new Date(head.createdAt),
    ...(editAt ? { editedAt: new Date(editAt) } : {}),
    text: convertMentions(typeof post.message === 'string' ? post.message : '', ctx.isUser),
    reactions: reactions(post, ctx.skipped),
    ...(post.is_pinned === true ? { pinned: true } : {}),
    files: await attachments(post, head.key, ctx),
  };
}

/** Mattermost keeps one reaction per person and emoji; here each emoji lists its people, in the order first given. */
function reactions(post: MattermostRecord, skipped: SkipCounter): SourceReaction[] {
  const byEmoji = new Map<string, Set<string>>();
  for (const reaction of records(post.reactions)) {
    const emoji = text(reaction.emoji_name)?.trim().replace(/^:|:$/g, '');
    const user = usernameKey(reaction.user);
    if (!emoji || !user) {
      skipped.add('reaction without an emoji or a person');
      continue;
    }
    const people = byEmoji.get(emoji) ?? new Set<string>();
    byEmoji.set(emoji, people.add(user));
  }
  return [...byEmoji].map(([emoji, people]) => ({ emoji, userKeys: [...people] }));
}

async function attachments(post: MattermostRecord, messageKey: string, ctx: MessageContext): Promise<SourceFile[]> {
  const paths = [...new Set(records(post.attachments).map((a) => text(a.path)?.trim()))];
  const files: SourceFile[] = [];
  for (const path of paths) {
    const name = path && (await ctx.files.find(path));
    if (!path || !name) {
      ctx.skipped.add('file missing from the export');
      continue;
    }
    files.push({ key: `${messageKey}:${path}`, name: posix.basename(path), open: () => ctx.files.open(name) });
  }
  return files;
}
