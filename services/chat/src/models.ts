import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

export interface MessageDoc {
  _id: Types.ObjectId;
  converseId: Types.ObjectId;
  seq: number;
  authorId: Types.ObjectId;
  content: string;
  mentions: Types.ObjectId[];
  attachments: Types.ObjectId[];
  replyTo?: Types.ObjectId;
  clientMsgId?: string;
  /** `${authorId}:${clientMsgId}`, present only with a clientMsgId: makes sends idempotent. */
  dedupeKey?: string;
  /** Count per emoji; who reacted lives in `reactions`. */
  reactionCounts: Record<string, number>;
  /** How many emoji reactionCounts holds (at most 20): the add's filter reads it. */
  reactionKinds?: number;
  deleted?: boolean;
  createdAt: Date;
  editedAt?: Date;
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
}

export interface ReadDoc {
  _id: Types.ObjectId;
  converseId: Types.ObjectId;
  userId: Types.ObjectId;
  readSeq: number;
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
    replyTo: { type: Schema.Types.ObjectId },
    clientMsgId: { type: String },
    dedupeKey: { type: String },
    reactionCounts: { type: Schema.Types.Mixed, default: {} },
    reactionKinds: { type: Number },
    deleted: { type: Boolean },
    createdAt: { type: Date, required: true },
    editedAt: { type: Date },
  },
  { versionKey: false, minimize: false },
);
// History pages, sync and the seq uniqueness guarantee.
messageSchema.index({ converseId: 1, seq: 1 }, { unique: true });
// Idempotent sends (sparse: only messages with a clientMsgId).
messageSchema.index({ dedupeKey: 1 }, { unique: true, sparse: true });
// Mention counts in the unread summary.
messageSchema.index({ mentions: 1, converseId: 1, seq: 1 });

const converseSchema = new Schema<ConverseDoc>(
  {
    lastSeq: { type: Number, required: true, default: 0 },
    type: { type: String, enum: ['dm'] },
    memberIds: { type: [Schema.Types.ObjectId], default: undefined },
    dmKey: { type: String },
    createdAt: { type: Date },
    lastMessageAt: { type: Date },
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

export interface ChatModels {
  messages: Model<MessageDoc>;
  converses: Model<ConverseDoc>;
  reads: Model<ReadDoc>;
  reactions: Model<ReactionDoc>;
}

export function chatModels(connection: Connection): ChatModels {
  const get = <T>(name: string, schema: Schema<T>) => modelOn(connection, name, schema);
  return {
    messages: get('Message', messageSchema),
    converses: get('Converse', converseSchema),
    reads: get('Read', readSchema),
    reactions: get('Reaction', reactionSchema),
  };
}
