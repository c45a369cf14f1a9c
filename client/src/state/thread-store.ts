import type { FollowedThread, Message } from '@im/protocol';
import { accountStore } from './account-state.ts';

/**
 * Threads as the web client shows them: replies live in their converse's
 * history like any message (so seq-based sync is untouched) but the main
 * timeline hides them; they show in the thread pane beside it.
 */
export interface ThreadsState {
  /** The thread shown in the pane. */
  open: { converseId: string; rootId: string } | null;
  /** rootId → its replies in seq order, once the pane loaded them. */
  replies: Record<string, Message[]>;
  /** The threads I follow, newest activity first (null until first loaded). */
  followed: FollowedThread[] | null;
}

export const useThreads = accountStore<ThreadsState>('threads', () => ({ open: null, replies: {}, followed: null }));

/**
 * A reply the pane holds changed (edited, deleted, reacted to): the same
 * change the converse's copy gets, so the pane never shows an older one.
 */
export function patchThreadReply(messageId: string, update: (m: Message) => Message, rootId?: string): void {
  const { replies } = useThreads.getState();
  const roots = rootId ? [rootId] : Object.keys(replies);
  for (const root of roots) {
    const list = replies[root];
    if (!list?.some((m) => m.id === messageId)) continue;
    useThreads.setState((s) => ({
      replies: { ...s.replies, [root]: list.map((m) => (m.id === messageId ? update(m) : m)) },
    }));
  }
}
