import { announce, call, EVENTS, type ActionCaller } from '@im/sdk';
import { toParticipants, type CallStore } from './call-store.ts';
import type { CallDoc } from './models.ts';

/** What can announce events and call actions: an action's context, or the service's broker. */
export type Sender = ActionCaller & { broadcast(event: string, payload?: unknown): unknown };

/** Tells the converse's members who is in its call now (a DM's members by name). */
export function tellCall(sender: Sender, converseId: string, doc: CallDoc | null, memberIds?: string[]): void {
  announce(sender, EVENTS.callUpdated, {
    converseId,
    participants: toParticipants(doc),
    ...(memberIds ? { kind: 'dm' as const, memberIds } : { kind: 'group' as const }),
  });
}

/**
 * The message that records a DM call that ended: missed (only the caller was
 * in it), declined, or answered with its length. Written once: keyed by the
 * call's start and the connection that opened it (two calls may start within
 * one second), so a retried webhook or a second node writes nothing new.
 */
export async function recordCallEnd(sender: Sender, converseId: string, ended: CallDoc): Promise<void> {
  if (!ended.memberIds) return;
  const outcome = ended.everJoined.length > 1 ? 'ended' : ended.declinedBy ? 'declined' : 'missed';
  const durationSec = Math.max(0, Math.round((Date.now() - ended.startedAt.getTime()) / 1000));
  await call(sender, 'chat.postCallRecord', {
    converseId,
    authorId: ended.callerId,
    outcome,
    durationSec,
    key: `${converseId}:${ended.startedAt.getTime()}:${ended.openedBy}`,
  });
}

/**
 * Connection `sid` left the converse's call (a webhook, or LiveKit no longer
 * lists it): its members are told, and a call nobody is left in is closed.
 */
export async function connectionLeft(sender: Sender, store: CallStore, converseId: string, sid: string): Promise<void> {
  const doc = await store.left(converseId, sid);
  if (!doc) return;
  if (doc.participants.length > 0) tellCall(sender, converseId, doc, doc.memberIds);
  else await closeCall(sender, store, doc, true);
}

/**
 * A call is over (nobody left in it, or LiveKit closed its room): a DM's
 * record is written first (idempotent, so a failure here leaves the call in
 * place for LiveKit's retry or the next reconciliation to finish), then the
 * call is removed and its members told. `onlyIfEmpty`: someone who joined
 * meanwhile keeps it going.
 */
export async function closeCall(sender: Sender, store: CallStore, call: CallDoc, onlyIfEmpty: boolean): Promise<void> {
  const converseId = call._id.toHexString();
  await recordCallEnd(sender, converseId, call);
  const ended = await store.end(converseId, onlyIfEmpty);
  if (ended) tellCall(sender, converseId, null, ended.memberIds);
  else tellCall(sender, converseId, await store.get(converseId), call.memberIds);
}
