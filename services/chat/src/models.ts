import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { threadFollowSchema, type ThreadFollowDoc } from './threads/thread-follows.ts';
import {
  pollVoteSchema,
  savedSchema,
  submessageSchema,
  type PollVoteDoc,
  type SavedDoc,
  type SubmessageDoc,
} from './personal/personal-models.ts';

export interface MessageDoc {
  _id: Types.ObjectId;
  converseId: Types.ObjectId;
  seq: number;
  authorId: Types.ObjectId;
  content: string;
  mentions: Types.ObjectId[];
  attachments: Types.ObjectId[];
  /** One of the attachments is an image (set when attached, for search's has:image). */
  imageAttached?: boolean;
  replyTo?: Types.ObjectId;
  clientMsgId?: string;
  /** `${authorId}:${clientMsgId}`, present only with a clientMsgId: makes sends idempotent. */
  dedupeKey?: string;
  /** A bot's post under another name (an incoming webhook's `username`). */
  username?: string;
  /** `/me`: an action, shown after the author's name. */
  emote?: boolean;
  /** A DM call that ended (written by the call service under the caller's name). */
  call?: { outcome: 'missed' | 'declined' | 'ended'; durationSec: number };
  /** `@all` / `@here` (see mention-many.ts): counted when read, never written per member. */
  mentionsAll?: boolean;
  mentionsHere?: boolean;
  /** Set with either flag, to the message's converse: the key of the sparse index of mentions of many. */
  mentionsMany?: Types.ObjectId;
  /** `@here`: the members online at send time, when there were few enough to name. */
  hereIds?: Types.ObjectId[];
  /** Count per emoji; who reacted lives in `reactions`. */
  reactionCounts: Record<string, number>;
  /** How many emoji reactionCounts holds (at most 20): the add's filter reads it. */
  reactionKinds?: number;
  deleted?: boolean;
  createdAt: Date;
  editedAt?: Date;
  /** How many times the stored message changed (edits, reactions, deletion): which of two versions is newer. */
  v?: number;
  /** A thread reply: its root (a top-level message of the same converse). */
  threadId?: Types.ObjectId;
  /** A thread root: one atomic update per reply keeps it. */
  thread?: { replyCount: number; lastReplyAt: Date; participantIds: Types.ObjectId[] };
  /** `converseId`: the key of the sparse index of a converse's pins (the view shows `by` and `at`). */
  pinned?: { by: Types.ObjectId; at: Date; converseId: Types.ObjectId };
  /** The link a preview was taken for (set when a fetcher claims it, so only one node fetches). */
  previewUrl?: string;
  /** The first link's card (see link-preview in the file service); absent until fetched, or removed. */
  preview?: { url: string; title: string; description?: string; siteName?: string; imageFileId?: Types.ObjectId };
  /** A forward: the first message it copies (a forward of a forward keeps the first origin). */
  forwarded?: { messageId: Types.ObjectId; converseId: Types.ObjectId; authorId: Types.ObjectId; createdAt: Date };
  /** A poll (see poll-actions.ts): its tallies, kept by one update per vote; who voted lives in `pollvotes`. */
  poll?: PollDoc;
}

export interface PollDoc {
  question: string;
  /** `voterIds` only in a poll that shows its voters. */
  options: Array<{ text: string; votes: number; voterIds?: Types.ObjectId[] }>;
  multiple: boolean;
  anonymous: boolean;
  closesAt?: Date;
  /** Closed early by its author. */
  closedAt?: Date;
}

/**
 * One document per converse: the sequence counter (for every converse), and
 * for DMs who is in it. Group panels' converses get theirs on first send.
 */
export interface ConverseDoc {
  _id: Types.ObjectId;
  lastSeq: number;
  type?: 'dm';
  memberIds?: Types.ObjectId[];
  /** The two member ids, sorted and joined: one DM per pair. */
  dmKey?: string;
  /** When the DM was opened (DMs only; absent on DMs opened before it was recorded). */
  createdAt?: Date;
  /** When its latest message was written (set with the counter, absent before the first one). */
  lastMessageAt?: Date;
  /** The seq of its latest message that says @all or @here: unread summaries look for those only above a reader's position when this is. */
  lastManySeq?: number;
  /** Moves with every change to one of its stored messages: with lastSeq, what a kept page was taken at. */
  rev?: number;
  /** How many of its messages are pinned: a pin's filter reads it, so racing pins cannot pass the limit. */
  pinCount?: number;
}

export interface ReadDoc {
  _id: Types.ObjectId;
  converseId: Types.ObjectId;
  userId: Types.ObjectId;
  readSeq: number;
  /**
   * Seqs of messages that mention this user, kept as they are written,
   * edited and deleted, so the unread summary counts them without reading
   * messages. Those at or below readSeq are dropped at the next ack.
   */
  mentionSeqs?: number[];
}

export interface ReactionDoc {
  _id: Types.ObjectId;
  messageId: Types.ObjectId;
  userId: Types.ObjectId;
  emoji: string;
}

const messageSchema = new Schema<MessageDoc>(
  {
    converseId: { type: Schema.Types.ObjectId, required: true },
    seq: { type: Number, required: true },
    authorId: { type: Schema.Types.ObjectId, required: true },
    content: { type: String, default: '' },
    mentions: { type: [Schema.Types.ObjectId], default: [] },
    attachments: { type: [Schema.Types.ObjectId], default: [] },
    imageAttached: { type: Boolean },
    replyTo: { type: Schema.Types.ObjectId },
    clientMsgId: { type: String },
    dedupeKey: { type: String },
    username: { type: String },
    emote: { type: Boolean },
    call: { type: Schema.Types.Mixed, default: undefined },
    mentionsAll: { type: Boolean },
    mentionsHere: { type: Boolean },
    mentionsMany: { type: Schema.Types.ObjectId },
    hereIds: { type: [Schema.Types.ObjectId], default: undefined },
    reactionCounts: { type: Schema.Types.Mixed, default: {} },
    reactionKinds: { type: Number },
    deleted: { type: Boolean },
    createdAt: { type: Date, required: true },
    editedAt: { type: Date },
    v: { type: Number },
    previewUrl: { type: String },
    preview: { type: Schema.Types.Mixed, default: undefined },
    forwarded: { type: Schema.Types.Mixed, default: undefined },
    threadId: { type: Schema.Types.ObjectId },
    thread: {
      type: new Schema(
        {
          replyCount: { type: Number, required: true },
          lastReplyAt: { type: Date, required: true },
          participantIds: { type: [Schema.Types.ObjectId], default: [] },
        },
        { _id: false },
      ),
      default: undefined,
    },
    poll: { type: Schema.Types.Mixed, default: undefined },
    pinned: {
      type: new Schema(
        {
          by: { type: Schema.Types.ObjectId, required: true },
          at: { type: Date, required: true },
          converseId: { type: Schema.Types.ObjectId, required: true },
        },
        { _id: false },
      ),
      default: undefined,
    },
  },
  { versionKey: false, minimize: false },
);
// History pages, sync and the seq uniqueness guarantee.
messageSchema.index({ converseId: 1, seq: 1 }, { unique: true });
// The indexes below are sparse on a field only some messages have, so a plain
// message adds nothing to them (partial indexes would say the same in MongoDB,
// but the embedded dev database ignores their filter and indexes every insert).
// Unread mentions of many: only messages with @all or @here.
messageSchema.index({ mentionsMany: 1 }, { sparse: true, name: 'mentions_many' });
// Idempotent sends (sparse: only messages with a clientMsgId).
messageSchema.index({ dedupeKey: 1 }, { unique: true, sparse: true });
// A thread's replies (sorted by seq in memory: a thread is small next to its converse).
messageSchema.index({ threadId: 1 }, { sparse: true });
// A converse's pins (at most 50, sorted in memory).
messageSchema.index({ 'pinned.converseId': 1 }, { sparse: true });

const converseSchema = new Schema<ConverseDoc>(
  {
    lastSeq: { type: Number, required: true, default: 0 },
    type: { type: String, enum: ['dm'] },
    memberIds: { type: [Schema.Types.ObjectId], default: undefined },
    dmKey: { type: String },
    createdAt: { type: Date },
    lastMessageAt: { type: Date },
    lastManySeq: { type: Number },
    rev: { type: Number },
    pinCount: { type: Number },
  },
  { versionKey: false },
);
converseSchema.index({ dmKey: 1 }, { unique: true, sparse: true });
converseSchema.index({ memberIds: 1 });

const readSchema = new Schema<ReadDoc>(
  {
    converseId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    readSeq: { type: Number, required: true },
    mentionSeqs: { type: [Number], default: undefined },
  },
  { versionKey: false },
);
readSchema.index({ userId: 1, converseId: 1 }, { unique: true });

const reactionSchema = new Schema<ReactionDoc>(
  {
    messageId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    emoji: { type: String, required: true },
  },
  { versionKey: false },
);
reactionSchema.index({ messageId: 1, userId: 1, emoji: 1 }, { unique: true });

/** One-time data changes this service made to its collections, by name. */
export interface MigrationDoc {
  _id: string;
  doneAt: Date;
}

const migrationSchema = new Schema<MigrationDoc>(
  { _id: { type: String, required: true }, doneAt: { type: Date, required: true } },
  { versionKey: false },
);

export interface ChatModels {
  messages: Model<MessageDoc>;
  converses: Model<ConverseDoc>;
  reads: Model<ReadDoc>;
  reactions: Model<ReactionDoc>;
  migrations: Model<MigrationDoc>;
  follows: Model<ThreadFollowDoc>;
  pollVotes: Model<PollVoteDoc>;
  submessages: Model<SubmessageDoc>;
  saved: Model<SavedDoc>;
}

export function chatModels(connection: Connection): ChatModels {
  const get = <T>(name: string, schema: Schema<T>) => modelOn(connection, name, schema);
  return {
    messages: get('Message', messageSchema),
    converses: get('Converse', converseSchema),
    reads: get('Read', readSchema),
    reactions: get('Reaction', reactionSchema),
    migrations: get('ChatMigration', migrationSchema),
    follows: get('ThreadFollow', threadFollowSchema),
    pollVotes: get('PollVote', pollVoteSchema),
    submessages: get('Submessage', submessageSchema),
    saved: get('SavedMessage', savedSchema),
  };
}
