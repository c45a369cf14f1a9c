import { Schema, type Types } from 'mongoose';

/**
 * One vote in a poll: the options a voter chose. `voterKey` is the voter's
 * id for a poll that shows its voters, and a keyed hash of poll and voter
 * for an anonymous one (see poll-voters.ts), so a vote can be replaced or
 * withdrawn but nothing stored names who cast it.
 */
export interface PollVoteDoc {
  _id: Types.ObjectId;
  messageId: Types.ObjectId;
  voterKey: string;
  options: number[];
}

export const pollVoteSchema = new Schema<PollVoteDoc>(
  {
    messageId: { type: Schema.Types.ObjectId, required: true },
    voterKey: { type: String, required: true },
    options: { type: [Number], required: true },
  },
  // No timestamps: when an anonymous vote was cast could be matched with who was online then.
  { versionKey: false },
);
// One vote per voter and poll; a replacement is one upsert on it.
pollVoteSchema.index({ messageId: 1, voterKey: 1 }, { unique: true });

/** A widget's event on a message (see packages/protocol/src/submessages.ts). */
export interface SubmessageDoc {
  _id: Types.ObjectId;
  messageId: Types.ObjectId;
  converseId: Types.ObjectId;
  senderId: Types.ObjectId;
  content: string;
  createdAt: Date;
}

export const submessageSchema = new Schema<SubmessageDoc>(
  {
    messageId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    senderId: { type: Schema.Types.ObjectId, required: true },
    content: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// A message's events in the order they came (the widget reduces them in that order).
submessageSchema.index({ messageId: 1, _id: 1 });

/** A message a user saved for later. */
export interface SavedDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  messageId: Types.ObjectId;
  /** The message's converse: the listing keeps only those the user can still read. */
  converseId: Types.ObjectId;
  savedAt: Date;
}

export const savedSchema = new Schema<SavedDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    messageId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    savedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// Saving twice keeps one; the upsert relies on it.
savedSchema.index({ userId: 1, messageId: 1 }, { unique: true });
// "My saved messages", newest first, paged by (savedAt, _id).
savedSchema.index({ userId: 1, savedAt: -1, _id: -1 });
