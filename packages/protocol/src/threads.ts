/**
 * Threads and pins (shared/API.md, "Additions": Conversations): what a
 * thread root and a pinned message carry, and the followed-threads listing.
 */
import type { Id, Int, Message, Page, Timestamp } from './index.ts';

/** On a thread's root: kept by one atomic update per reply. */
export interface ThreadSummary {
  replyCount: Int;
  lastReplyAt: Timestamp;
  /** Everyone who replied, in the order they first did. */
  participantIds: Id[];
}

/** On a pinned message: who pinned it and when. */
export interface PinInfo {
  by: Id;
  at: Timestamp;
}

/** `POST /api/messages/:id/thread/ack` body: replies up to this seq are read. */
export interface ThreadAckBody {
  seq: Int;
}

/** One thread the caller follows (they wrote its root, replied, or were mentioned in a reply). */
export interface FollowedThread {
  root: Message;
  converseId: Id;
  lastReplyAt: Timestamp;
  /** Replies above the caller's read position in this thread. */
  unread: Int;
  /** The caller's read position in this thread (a reply's seq). */
  readSeq: Int;
}

/** `GET /api/threads`: the threads I follow, newest activity first. */
export type FollowedThreadPage = Page<FollowedThread>;
