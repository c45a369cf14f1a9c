import type { Submessage } from '@im/protocol';
import { useEffect } from 'react';
import { accountStore } from './account-state.ts';
import { api } from '../api/api.ts';

/**
 * Interactive messages on the client: a widget's state is a reduction of its
 * message's submessages (JSON events the server stores and relays, in the
 * order they came). A widget names its reducer; the server knows nothing of
 * it, so a new widget is client code only. Polls keep their tallies on the
 * server instead (see docs/conversations.md); later widgets use this.
 */
export interface SubmessagesState {
  /** messageId → its submessages in the order they came, once loaded or heard. */
  byMessage: Record<string, Submessage[]>;
}

export const useSubmessages = accountStore<SubmessagesState>('submessages', () => ({ byMessage: {} }));

/** Adds submessages to what is held, once each, in the server's order (ids grow with time). */
export function mergeSubmessages(held: readonly Submessage[], incoming: readonly Submessage[]): Submessage[] {
  const byId = new Map(held.map((s) => [s.id, s]));
  for (const s of incoming) byId.set(s.id, s);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `message:submessage`: kept for its message. */
export function applySubmessage(submessage: Submessage): void {
  useSubmessages.setState((s) => ({
    byMessage: {
      ...s.byMessage,
      [submessage.messageId]: mergeSubmessages(s.byMessage[submessage.messageId] ?? [], [submessage]),
    },
  }));
}

export async function loadSubmessages(messageId: string): Promise<void> {
  const list = await api.call('chat.submessages', { messageId });
  useSubmessages.setState((s) => ({
    byMessage: { ...s.byMessage, [messageId]: mergeSubmessages(s.byMessage[messageId] ?? [], list) },
  }));
}

/** Sends one event of a widget (a JSON object); it comes back to everyone as `message:submessage`. */
export async function sendSubmessage(messageId: string, event: Record<string, unknown>): Promise<void> {
  applySubmessage(await api.call('chat.postSubmessage', { messageId, content: JSON.stringify(event) }));
}

/** A widget's reducer: its state after one more event (an event it does not understand leaves it as it was). */
export type WidgetReducer<S> = (state: S, event: unknown, from: { senderId: string; createdAt: string }) => S;

/** Folds submessages into a widget's state; content that is not JSON is skipped. */
export function reduceWidget<S>(submessages: readonly Submessage[], reducer: WidgetReducer<S>, initial: S): S {
  let state = initial;
  for (const s of submessages) {
    let event: unknown;
    try {
      event = JSON.parse(s.content);
    } catch {
      continue;
    }
    state = reducer(state, event, { senderId: s.senderId, createdAt: s.createdAt });
  }
  return state;
}

/** A widget's state for a message: loads its submessages once, then follows them live. */
export function useWidgetState<S>(messageId: string, reducer: WidgetReducer<S>, initial: S): S {
  const held = useSubmessages((s) => s.byMessage[messageId]);
  useEffect(() => {
    if (useSubmessages.getState().byMessage[messageId] === undefined) void loadSubmessages(messageId).catch(() => {});
  }, [messageId]);
  return reduceWidget(held ?? [], reducer, initial);
}
