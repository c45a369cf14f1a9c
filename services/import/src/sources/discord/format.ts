/**
 * DiscordChatExporter's JSON, as far as the reader uses it. One file holds
 * one channel or thread: `guild` and `channel` first, then the `messages`
 * array (oldest first), then `messageCount`. Every field may be missing in a
 * hand-edited or older export, so all are optional here and checked where read.
 */
export interface DceGuild {
  id?: string;
  name?: string;
}

export interface DceChannel {
  id?: string;
  /** A channel type's name (`GuildTextChat`, `GuildPublicThread`, `DirectTextChat`...). */
  type?: string;
  /** A text channel's category; a thread's parent channel (the field predates threads). */
  categoryId?: string | null;
  category?: string | null;
  name?: string;
  topic?: string | null;
}

export interface DceUser {
  id?: string;
  /** The account's username (unique since Discord dropped discriminators). */
  name?: string;
  /** `0000` for new-style usernames, the old four digits otherwise. */
  discriminator?: string;
  /** The name shown in that server (server nickname, else global display name). */
  nickname?: string | null;
  isBot?: boolean;
}

export interface DceEmoji {
  /** Set for a server's custom emoji only. */
  id?: string | null;
  /** The character(s) of a standard emoji, a custom emoji's name. */
  name?: string;
  /** A standard emoji's shortcode name (`thumbsup`), a custom one's name. */
  code?: string;
  isAnimated?: boolean;
  /** A URL, or a path relative to the JSON file when exported with media. */
  imageUrl?: string;
}

export interface DceReaction {
  emoji?: DceEmoji;
  count?: number;
  /** Who reacted (older versions of the exporter wrote only the count). */
  users?: DceUser[];
}

export interface DceAttachment {
  id?: string;
  /** A URL, or a path relative to the JSON file when exported with media. */
  url?: string;
  fileName?: string;
  fileSizeBytes?: number;
}

export interface DceMessage {
  id?: string;
  /** `Default`, `Reply`, a system notice's name, or a bare number for types the exporter has no name for. */
  type?: string;
  timestamp?: string;
  timestampEdited?: string | null;
  isPinned?: boolean;
  content?: string;
  author?: DceUser;
  attachments?: DceAttachment[];
  reactions?: DceReaction[];
  mentions?: DceUser[];
  inlineEmojis?: DceEmoji[];
  reference?: { messageId?: string | null; channelId?: string | null; guildId?: string | null } | null;
}

/** The exporter's stand-in guild for direct messages (id 0, "Direct Messages"). */
export const DIRECT_MESSAGES_GUILD_ID = '0';

const THREAD_TYPES = new Set(['GuildPublicThread', 'GuildPrivateThread', 'GuildNewsThread', '10', '11', '12']);
const DIRECT_TYPES = new Set(['DirectTextChat', 'DirectGroupTextChat', '1', '3']);

export const isThreadChannel = (channel: DceChannel): boolean => THREAD_TYPES.has(channel.type ?? '');
export const isDirectChannel = (channel: DceChannel, guild: DceGuild): boolean =>
  DIRECT_TYPES.has(channel.type ?? '') || guild.id === DIRECT_MESSAGES_GUILD_ID;

/**
 * Message types that carry what a person wrote: plain messages, replies, and
 * the answers of slash and context-menu commands (types 20 and 23, which the
 * exporter writes as numbers). Everything else is a system notice (joins,
 * pins, calls, renames, "started a thread", a thread's starter stub).
 */
const WRITTEN_TYPES = new Set(['Default', 'Reply', '0', '19', '20', '23']);
export const isWrittenMessage = (message: DceMessage): boolean => WRITTEN_TYPES.has(message.type ?? 'Default');
