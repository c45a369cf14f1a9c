import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/**
 * The stored schedule: messages to send later and reminders to deliver.
 * Each item is claimed by one chat node at a time (`leaseUntil`); a node
 * that dies holding one lets the lease run out and another takes it over.
 */
interface DueWork {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  converseId: Types.ObjectId;
  status: 'pending' | 'failed' | 'sent';
  /** While set and in the future, a node is working on the item. */
  leaseUntil?: Date;
  createdAt: Date;
}

export interface ScheduledDoc extends DueWork {
  sendAt: Date;
  content: string;
  attachments?: Types.ObjectId[];
  replyTo?: Types.ObjectId;
  threadId?: Types.ObjectId;
  failure?: string;
  messageId?: Types.ObjectId;
  /** Changed by each edit: a send claimed before an edit does not count as the edited one. */
  v: number;
}

export interface ReminderDoc extends DueWork {
  messageId: Types.ObjectId;
  at: Date;
}

const scheduledSchema = new Schema<ScheduledDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    status: { type: String, required: true, enum: ['pending', 'failed', 'sent'], default: 'pending' },
    leaseUntil: { type: Date, default: () => new Date(0) },
    createdAt: { type: Date, required: true, default: () => new Date() },
    sendAt: { type: Date, required: true },
    content: { type: String, required: true },
    attachments: { type: [Schema.Types.ObjectId], default: undefined },
    replyTo: { type: Schema.Types.ObjectId },
    threadId: { type: Schema.Types.ObjectId },
    failure: { type: String },
    messageId: { type: Schema.Types.ObjectId },
    v: { type: Number, required: true, default: 0 },
  },
  { versionKey: false },
);
// What is due, earliest first; an author's list by time.
scheduledSchema.index({ status: 1, sendAt: 1 });
scheduledSchema.index({ userId: 1, sendAt: 1 });

const reminderSchema = new Schema<ReminderDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    converseId: { type: Schema.Types.ObjectId, required: true },
    status: { type: String, required: true, enum: ['pending', 'failed', 'sent'], default: 'pending' },
    leaseUntil: { type: Date, default: () => new Date(0) },
    createdAt: { type: Date, required: true, default: () => new Date() },
    messageId: { type: Schema.Types.ObjectId, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
reminderSchema.index({ status: 1, at: 1 });
reminderSchema.index({ userId: 1, at: 1 });

export interface ScheduleModels {
  scheduled: Model<ScheduledDoc>;
  reminders: Model<ReminderDoc>;
}

export function scheduleModels(connection: Connection): ScheduleModels {
  return {
    scheduled: modelOn(connection, 'ScheduledMessage', scheduledSchema),
    reminders: modelOn(connection, 'Reminder', reminderSchema),
  };
}
