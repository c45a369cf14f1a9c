/**
 * Notifications and personal organisation (shared/API.md): notification
 * levels, status and do not disturb, user groups, scheduled messages,
 * reminders, saved messages, polls and forwarding.
 */

import type { Id, Int, Message, Page, Timestamp } from './index.ts';

/** How much of a converse reaches me: everything, only mentions of me, or nothing. */
export type NotificationLevel = 'all' | 'mentions' | 'none';

/**
 * `GET`/`PUT /api/converses/:id/notifications`. The default (never set) is
 * `all` in DMs and groups under 100 members, else `mentions`. While
 * `muteUntil` runs the converse counts as `none`.
 */
export interface ConverseNotificationSetting {
  level: NotificationLevel;
  muteUntil: Timestamp | null;
}

/** `GET /api/notifications/unread`, and `inbox:updated`: inbox entries not yet read. */
export interface InboxUnread {
  unread: Int;
}

/** `POST /api/notifications/read`: every entry, or those up to and including `upTo` (an entry id). */
export interface InboxReadBody {
  upTo?: Id;
}

/** `POST /api/converses/:id/unread`: my read position goes back to just before the message `seq`. */
export interface MarkUnreadBody {
  seq: Int;
}

/** Quiet hours that repeat: do not disturb from `start` to `end` (HH:MM, in `timeZone`) on `days` (0 = Sunday). */
export interface DndSchedule {
  /** @pattern ^([01][0-9]|2[0-3]):[0-5][0-9]$ */
  start: string;
  /** @pattern ^([01][0-9]|2[0-3]):[0-5][0-9]$ */
  end: string;
  /** An IANA time zone, e.g. Europe/Berlin. */
  timeZone: string;
  /** Weekdays it applies on (0 = Sunday); all when absent. */
  days?: Int[];
}

/** `PATCH /api/users/me {status}`: do not disturb (until a time, or on a schedule) and a custom status. */
export interface UserStatus {
  /** Do not disturb, set by hand (ends at `until` when given). */
  dnd: boolean;
  until?: Timestamp | null;
  /** What others see beside my name (at most 100 characters). */
  text?: string;
  /** One emoji shown with the text (a Unicode emoji or a `:shortcode:`). */
  emoji?: string;
  /** When the custom text and emoji clear themselves ("clear after"); kept until changed when absent. */
  clearAt?: Timestamp | null;
  schedule?: DndSchedule | null;
}

/** What others see of someone's status in member lists, profile cards and presence events. */
export interface PresenceStatus {
  online: boolean;
  /** Online but idle for 10 minutes. */
  away?: true;
  /** Do not disturb now (by hand or by schedule). */
  dnd?: true;
  text?: string;
  emoji?: string;
}

/**
 * A user group's handle: 3 to 32 of a-z, 0-9, `_` and `-`, starting with a
 * letter or digit and not ending in `-` (the bounds of an `@name` mention,
 * which drops a trailing `-` or `.`).
 */
export const USER_GROUP_HANDLE_PATTERN = '^[a-z0-9][a-z0-9_-]{1,30}[a-z0-9_]$';
/** Handles that mean something else in a message. */
export const RESERVED_HANDLES: readonly string[] = ['all', 'here', 'everyone', 'channel'];

/** A named set of a group's members, mentioned together as `@handle`. */
export interface UserGroup {
  id: Id;
  groupId: Id;
  /** @pattern ^[a-z0-9][a-z0-9_-]{1,30}[a-z0-9_]$ */
  handle: string;
  name: string;
  memberIds: Id[];
}

/** A message waiting to be sent at `sendAt` (`POST /api/converses/:id/messages {sendAt}` → 202). */
export interface ScheduledMessage {
  id: Id;
  converseId: Id;
  sendAt: Timestamp;
  content: string;
  attachments?: Id[];
  replyTo?: Id;
  threadId?: Id;
  createdAt: Timestamp;
}

/** `202` of a send with `sendAt`. */
export interface ScheduledAccepted {
  scheduled: ScheduledMessage;
}

/** `POST /api/messages/:id/reminder` (201). */
export interface Reminder {
  id: Id;
  messageId: Id;
  converseId: Id;
  at: Timestamp;
}

/** One of my saved messages, as it reads now, with when I saved it (`GET /api/saved`). */
export type SavedMessage = Message & { savedAt: Timestamp };
export type SavedPage = Page<SavedMessage>;

export interface PollOption {
  text: string;
  votes: Int;
  /** Who voted for it; never present for an anonymous poll. */
  voterIds?: Id[];
}

/** A poll on a message: the first widget built on message submessages. */
export interface Poll {
  question: string;
  options: PollOption[];
  multiple: boolean;
  anonymous: boolean;
  closesAt?: Timestamp;
  closed: boolean;
  /** The indexes the reader voted for (empty in events sent to the whole converse). */
  myVotes: Int[];
}

/** `POST /api/converses/:id/messages {poll}`. */
export interface PollBody {
  question: string;
  options: string[];
  multiple?: boolean;
  anonymous?: boolean;
  closesAt?: Timestamp;
}

/** Where a forwarded message came from (a link back is shown only to those who can read the original). */
export interface ForwardedFrom {
  messageId: Id;
  converseId: Id;
  authorId: Id;
  createdAt: Timestamp;
}
