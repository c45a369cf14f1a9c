import type { Reminder, ScheduledEntry } from '@im/protocol';
import type { ReminderDoc, ScheduledDoc } from './schedule-models.ts';

export const toScheduled = (doc: ScheduledDoc): ScheduledEntry => ({
  id: doc._id.toHexString(),
  converseId: doc.converseId.toHexString(),
  sendAt: doc.sendAt.toISOString(),
  content: doc.content,
  ...(doc.attachments?.length ? { attachments: doc.attachments.map((id) => id.toHexString()) } : {}),
  ...(doc.replyTo ? { replyTo: doc.replyTo.toHexString() } : {}),
  ...(doc.threadId ? { threadId: doc.threadId.toHexString() } : {}),
  createdAt: doc.createdAt.toISOString(),
  status: doc.status,
  ...(doc.failure ? { failure: doc.failure } : {}),
  ...(doc.messageId ? { messageId: doc.messageId.toHexString() } : {}),
});

export const toReminder = (doc: ReminderDoc): Reminder => ({
  id: doc._id.toHexString(),
  messageId: doc.messageId.toHexString(),
  converseId: doc.converseId.toHexString(),
  at: doc.at.toISOString(),
});
