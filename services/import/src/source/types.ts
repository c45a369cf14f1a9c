import type { Readable } from 'node:stream';
import type { ImportKind } from '@im/protocol';
import type { SkipCounter } from './skip-counter.ts';

/**
 * What every reader (Slack, Mattermost, Discord, this platform's own archive)
 * turns its export into. Readers only read and translate; the writer
 * (`../write/`) matches people to accounts, numbers messages and writes.
 *
 * Keys are the export's own ids (`U024BE7LH`, a Mattermost username, a
 * Discord snowflake): stable across runs of the same export, which is what
 * makes a second run add nothing (the writer derives every document id from
 * the origin and the key).
 */
export interface ImportSource {
  readonly kind: ImportKind;
  /**
   * The export's origin, as stable as the export allows (a Slack team id or
   * workspace name, a Mattermost team name, a Discord guild id): ids are
   * derived from it, so two different exports never collide and the same
   * export imported twice lands on the same documents.
   */
  readonly origin: string;
  /** What the reader passed over, by reason (the writer adds its own). */
  readonly skipped: SkipCounter;
  /** Workspaces, teams, servers: each becomes a group. */
  groups(): AsyncIterable<SourceGroup>;
  /** Every person the export knows (authors not listed here are made from the messages' own details, or as unknown). */
  users(): AsyncIterable<SourceUser>;
  channels(): AsyncIterable<SourceChannel>;
  /**
   * Every message, replies included, streamed (never all in memory). May be
   * called more than once and must yield the same messages in the same order
   * each time (the writer numbers them in a first pass).
   */
  messages(): AsyncIterable<SourceMessage>;
  /** Custom emoji with their images (names without colons). */
  emoji(): AsyncIterable<SourceEmoji>;
  /** Lets go of open files. */
  close(): Promise<void>;
}

export interface SourceGroup {
  key: string;
  name: string;
  description?: string;
}

export interface SourceUser {
  key: string;
  /** The name at the source; the writer makes it a valid username. */
  username: string;
  displayName?: string;
  email?: string;
  /** Deleted or deactivated at the source: still an author, never matched by username alone. */
  deleted?: boolean;
  bot?: boolean;
}

export interface SourceChannel {
  key: string;
  /** The group it belongs to; absent for direct messages. */
  groupKey?: string;
  /** `dm`: a direct or group direct conversation (memberKeys are its people). */
  kind: 'public' | 'private' | 'dm';
  name: string;
  topic?: string;
  /**
   * Its people at the source. A private channel's are the only ones who see
   * its panel; every public channel's become members of the group.
   */
  memberKeys: string[];
}

export interface SourceReaction {
  /** A Unicode emoji, or a shortcode name without colons (`thumbsup`, `+1`, a custom `party_parrot`). */
  emoji: string;
  userKeys: string[];
}

export interface SourceFile {
  /** Unique within the export (the writer derives the file's id from it). */
  key: string;
  name: string;
  /** The bytes, or undefined when the export does not hold them (counted as skipped). */
  open(): Promise<Readable | undefined>;
}

export interface SourceMessage {
  /** Unique within the export. */
  key: string;
  channelKey: string;
  authorKey: string;
  createdAt: Date;
  editedAt?: Date;
  /** Markdown. A mention of a person is written as `mentionToken(userKey)`; `@all`, `@here` as such. */
  text: string;
  /** A thread reply: its root's key (a message of the same channel). */
  threadRootKey?: string;
  /** A reply that quotes another message (Discord's `reference`). */
  replyToKey?: string;
  reactions: SourceReaction[];
  pinned?: boolean;
  /** `/me`: an action, shown after the author's name. */
  emote?: boolean;
  files: SourceFile[];
}

export interface SourceEmoji {
  /** Without colons. */
  name: string;
  open(): Promise<Readable | undefined>;
}
