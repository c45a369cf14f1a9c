import type { EmailNotifications } from '@im/protocol';
import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Types } from 'mongoose';

/**
 * An e-mail waiting to be sent, on a single instance (its queue is in
 * memory): written before it is queued, removed once sent or given up, and
 * queued again when the process starts.
 */
export interface OutboxDoc {
  _id: Types.ObjectId;
  mail: string;
  createdAt: Date;
}

const outboxSchema = new Schema<OutboxDoc>(
  { mail: { type: String, required: true }, createdAt: { type: Date, required: true } },
  { versionKey: false, collection: 'mail_outbox' },
);

/** A DM or mention a user with e-mail notifications missed: one per (user, message), until read or e-mailed. */
export interface MissedDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  converseId: Types.ObjectId;
  messageId: Types.ObjectId;
  seq: number;
  authorId: Types.ObjectId;
  kind: 'dm' | 'mention';
  /** The message's Markdown, as sent (rendered when the e-mail is made). */
  content: string;
  sentAt: Date;
}

const missedSchema = new Schema<MissedDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    messageId: { type: Schema.Types.ObjectId, required: true },
    seq: { type: Number, required: true },
    authorId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, required: true, enum: ['dm', 'mention'] },
    content: { type: String, required: true },
    sentAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'mail_missed' },
);
// Each message once per user (a second node hearing the same event writes nothing).
missedSchema.index({ userId: 1, messageId: 1 }, { unique: true });
// Reading a converse cancels its entries up to the read position.
missedSchema.index({ userId: 1, converseId: 1, seq: 1 });

/** A user's next missed-message e-mail and when it is due (`_id` is the user's id). */
export interface DigestDoc {
  _id: Types.ObjectId;
  dueAt: Date;
  /** The recipient's choice when it was scheduled (the delay of the next one if more arrive meanwhile). */
  every: EmailNotifications;
}

const digestSchema = new Schema<DigestDoc>(
  {
    dueAt: { type: Date, required: true },
    every: { type: String, required: true },
  },
  { versionKey: false, collection: 'mail_digests' },
);
// The timer reads the earliest due time, and claims due digests in order.
digestSchema.index({ dueAt: 1 });

export const mailModels = (connection: Connection) => ({
  outbox: modelOn(connection, 'MailOutbox', outboxSchema),
  missed: modelOn(connection, 'MailMissed', missedSchema),
  digests: modelOn(connection, 'MailDigest', digestSchema),
});

export type MailModels = ReturnType<typeof mailModels>;
