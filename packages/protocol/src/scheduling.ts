/**
 * Scheduled messages and reminders beyond the shared types of attention.ts:
 * what the author sees of a scheduled message's fate, and the realtime
 * events of both.
 */

import type { CommandAccepted } from './integrations.ts';
import type { Id, Notification, Timestamp } from './index.ts';
import type { Reminder, ScheduledAccepted, ScheduledMessage } from './attention.ts';

/**
 * Where a scheduled message stands: `pending` until `sendAt`, `failed` when
 * it could not be sent then (left the group, muted, panel deleted, the
 * message it answers gone: `failure` says which); a sent one leaves the list.
 */
export type ScheduledStatus = 'pending' | 'failed' | 'sent';

/** A scheduled message as its author lists it (`GET /api/scheduled`). */
export interface ScheduledEntry extends ScheduledMessage {
  status: ScheduledStatus;
  /** Why it was not sent (`failed` only). */
  failure?: string;
  /** The message it became (`sent` only, in the `scheduled:updated` event). */
  messageId?: Id;
}

/** `202` of `POST /api/converses/:id/messages`: a slash command ran, or the message was scheduled. */
export type SendAccepted = CommandAccepted | ScheduledAccepted;

/** `PATCH /api/scheduled/:id`: new text and/or a new time. */
export interface ScheduledUpdate {
  content?: string;
  sendAt?: Timestamp;
}

/** A reminder as its owner lists it (`GET /api/reminders`), with the words it reminds of. */
export interface ReminderEntry extends Reminder {
  /** The start of the message's text (plain). */
  preview: string;
}

/** `scheduled:updated`: one of my scheduled messages changed (made, edited, sent, failed, cancelled). */
export interface ScheduledUpdatedEvent {
  scheduled: ScheduledEntry;
  /** Cancelled: it is gone from the list. */
  removed?: true;
}

/** `notification` of a due reminder: its inbox entry. */
export interface ReminderNotification {
  type: 'reminder';
  notification: Notification;
}

/** Chat → push: a reminder fell due for a message its owner can still read. */
export interface ReminderDue {
  reminderId: Id;
  userId: Id;
  converseId: Id;
  messageId: Id;
  seq: number;
  authorId: Id;
  /** The message's text (the push service makes the preview). */
  content: string;
}
