import type { SkipCounter } from '../../source/skip-counter.ts';
import type { SourceChannel, SourceGroup, SourceUser } from '../../source/types.ts';
import { assetName } from './asset-path.ts';
import type { DiscordExportFiles } from './export-root.ts';
import { type DceEmoji, type DceUser, isDirectChannel, isThreadChannel } from './format.ts';
import { type DceHeader, readHeader, readMessages } from './read-json.ts';
import { ChannelSpans } from './overlap.ts';
import { type MessageContext, SKIP, translateMessage } from './translate.ts';

/** One JSON file of the export: a channel, a direct conversation, or a thread. */
export interface ChannelFile {
  jsonName: string;
  header: DceHeader;
  /** The panel its messages land in (a thread's parent channel). */
  channelKey: string;
  /** Set for a thread's file. */
  thread?: ThreadInfo;
}

export interface ThreadInfo {
  id: string;
  /**
   * The message the thread hangs under. Discord gives a thread started from
   * a message that message's id; a thread started on its own (a forum post)
   * has no such message, so its own first message becomes the root.
   */
  rootKey?: string;
  /** Whether the root is the thread's own first message (then it is no reply). */
  rootIsFirst: boolean;
}

interface ChannelDraft extends SourceChannel {
  members: Set<string>;
}

/** What the reader learns of the export in its one pass at opening: everything but the messages. */
export interface DiscordExportModel {
  origin: string;
  files: ChannelFile[];
  groups: SourceGroup[];
  channels: SourceChannel[];
  users: SourceUser[];
  /** Custom emoji whose image the export holds: name → file. */
  emoji: Map<string, string>;
  context(file: ChannelFile): MessageContext;
  /** Which messages an earlier file of the same channel held (left out). */
  spans: ChannelSpans;
}

const NOT_AN_EXPORT = 'file that is not a DiscordChatExporter export';
const BROKEN_FILE = 'file cut short or broken (read up to the damage)';

export async function scanExport(source: DiscordExportFiles, skipped: SkipCounter): Promise<DiscordExportModel> {
  const groups = new Map<string, SourceGroup>();
  const channels = new Map<string, ChannelDraft>();
  const channelNames = new Map<string, string>();
  const files: ChannelFile[] = [];
  const threads = new Map<string, ThreadInfo>();

  // First the headers: which files are channels and which threads, of which parent.
  for (const jsonName of source.jsonNames) {
    const header = await readHeader(source.files, jsonName);
    if (!header) {
      skipped.add(NOT_AN_EXPORT);
      continue;
    }
    const { guild, channel } = header;
    const id = channel.id!;
    const direct = isDirectChannel(channel, guild);
    const groupKey = direct || !guild.id ? undefined : guild.id;
    if (groupKey && !groups.has(groupKey)) groups.set(groupKey, { key: groupKey, name: guild.name || groupKey });
    channelNames.set(id, channel.name || id);
    if (isThreadChannel(channel) && channel.categoryId) {
      channelNames.set(channel.categoryId, channel.category || channel.categoryId);
      // One thread in two files (overlapping exports) is still one thread.
      const thread = threads.get(id) ?? { id, rootIsFirst: false };
      threads.set(id, thread);
      files.push({ jsonName, header, channelKey: channel.categoryId, thread });
      continue;
    }
    files.push({ jsonName, header, channelKey: id });
    if (!channels.has(id))
      channels.set(id, {
        key: id,
        ...(groupKey && { groupKey }),
        // The exporter cannot tell a private channel from a public one.
        kind: direct ? 'dm' : 'public',
        name: channel.name || id,
        ...(channel.topic && { topic: channel.topic }),
        memberKeys: [],
        members: new Set(),
      });
  }
  // A thread whose parent was not exported (a forum's posts: forums hold no messages of their own) gets a panel of its parent's name.
  for (const file of files) {
    if (!file.thread || channels.has(file.channelKey)) continue;
    const guildId = file.header.guild.id;
    channels.set(file.channelKey, {
      key: file.channelKey,
      ...(guildId && { groupKey: guildId }),
      kind: 'public',
      name: channelNames.get(file.channelKey) ?? file.channelKey,
      memberKeys: [],
      members: new Set(),
    });
  }

  const people = new Map<string, DceUser>();
  const emoji = new Map<string, string>();
  const emojiChecked = new Set<string>();
  // A person's details as last seen (the files are read in order, each oldest first).
  const meet = (user: DceUser | undefined): void => {
    if (!user?.id) return;
    const known = people.get(user.id);
    if (!known)
      people.set(user.id, {
        name: user.name,
        discriminator: user.discriminator,
        nickname: user.nickname,
        isBot: user.isBot,
      });
    else {
      if (user.name) known.name = user.name;
      if (user.discriminator) known.discriminator = user.discriminator;
      if (user.nickname) known.nickname = user.nickname;
      if (user.isBot !== undefined) known.isBot = user.isBot;
    }
  };
  const noteEmoji = async (file: ChannelFile, e: DceEmoji | undefined): Promise<void> => {
    if (!e?.id || !e.name || emojiChecked.has(e.id)) return;
    emojiChecked.add(e.id);
    const name = assetName(file.jsonName, e.imageUrl);
    if (name && !emoji.has(e.name) && (await source.exists(name))) emoji.set(e.name, name);
  };
  const rootsFound = new Set<string>();
  const firstAt = new Map<string, number>();
  const context = (file: ChannelFile): MessageContext => ({
    jsonName: file.jsonName,
    channelKey: file.channelKey,
    channelName: (id) => channelNames.get(id),
    exists: (name) => source.exists(name),
    open: (name) => source.files.open(name),
  });

  // Then every message once: people, members, emoji, thread roots and what is skipped.
  const spans = new ChannelSpans();
  for (const [index, file] of files.entries()) {
    const panel = channels.get(file.channelKey)!;
    const ctx = context(file);
    spans.begin(file.header.channel.id!, index);
    for await (const message of readMessages(source.files, file.jsonName, () => skipped.add(BROKEN_FILE))) {
      spans.note(message.id);
      if (message.id && spans.heldBefore(file.header.channel.id!, index, message.id)) {
        skipped.add(SKIP.twice);
        continue;
      }
      const result = await translateMessage(message, ctx);
      if (!result.kept) {
        skipped.add(result.skipped);
        continue;
      }
      for (const reason of result.skippedParts) skipped.add(reason);
      meet(message.author);
      panel.members.add(result.kept.authorKey);
      for (const user of message.mentions ?? []) meet(user);
      for (const reaction of message.reactions ?? []) {
        for (const user of reaction.users ?? []) meet(user);
        await noteEmoji(file, reaction.emoji);
      }
      for (const e of message.inlineEmojis ?? []) await noteEmoji(file, e);
      if (file.thread) {
        // Until its starter message is found, the thread's oldest message stands in as its root.
        const at = result.kept.createdAt.getTime();
        if (file.thread.rootKey === undefined || at < (firstAt.get(file.thread.id) ?? Infinity)) {
          file.thread.rootKey = result.kept.key;
          firstAt.set(file.thread.id, at);
        }
      } else if (threads.has(result.kept.key)) rootsFound.add(result.kept.key);
    }
    spans.end();
  }
  for (const thread of threads.values()) {
    if (rootsFound.has(thread.id)) thread.rootKey = thread.id;
    else thread.rootIsFirst = thread.rootKey !== undefined;
  }

  for (const channel of channels.values()) if (channel.kind === 'dm') addNamedRecipients(channel, people);

  const realGuilds = [...groups.keys()].sort();
  return {
    origin: realGuilds.length > 0 ? realGuilds.join('+') : 'direct-messages',
    files,
    groups: [...groups.values()],
    channels: [...channels.values()].map(({ members, ...channel }) => ({ ...channel, memberKeys: [...members] })),
    users: sourceUsers(people),
    emoji,
    context,
    spans,
  };
}

/**
 * The exporter names a direct conversation after its other people's shown
 * names (`bob`, `Ann, Bob Lee`): those found among the export's people are
 * members too, so a conversation where only one side wrote still has both.
 */
function addNamedRecipients(channel: ChannelDraft, people: ReadonlyMap<string, DceUser>): void {
  const byShownName = new Map<string, string | null>();
  for (const [key, user] of people) {
    for (const shown of new Set([user.nickname, user.name]))
      if (shown) byShownName.set(shown, byShownName.has(shown) ? null : key);
  }
  for (const part of channel.name.split(', ')) {
    const key = byShownName.get(part);
    if (key) channel.members.add(key);
  }
}

/**
 * Before 2023 a Discord username was unique only with its four-digit
 * discriminator (`ann#1234`, `ann#5678`): when several people of the export
 * share a name, those with a discriminator are told apart by it (`ann1234`),
 * so they are never taken for one person, nor for an account named `ann`.
 */
function sourceUsers(people: ReadonlyMap<string, DceUser>): SourceUser[] {
  const holders = new Map<string, number>();
  for (const user of people.values()) if (user.name) holders.set(user.name, (holders.get(user.name) ?? 0) + 1);
  return [...people].map(([key, user]) => {
    const legacy = user.discriminator && /^\d{4}$/.test(user.discriminator) && user.discriminator !== '0000';
    const shared = !!user.name && (holders.get(user.name) ?? 0) > 1;
    return sourceUser(key, user, shared && legacy ? `${user.name}${user.discriminator}` : user.name || key);
  });
}

function sourceUser(key: string, user: DceUser, username: string): SourceUser {
  return {
    key,
    username,
    ...(user.nickname && user.nickname !== username && { displayName: user.nickname }),
    // Discord renames an account it deletes to "Deleted User" (plus a few hex digits).
    ...(/^Deleted User\b/i.test(username) && { deleted: true }),
    ...(user.isBot === true && { bot: true }),
  };
}
