import { t } from '../i18n/i18n.ts';
import type { CallParticipant, CallRecord, CallState } from '@im/protocol';

/** How long an incoming DM call rings, and how long a caller waits for an answer, before giving up. */
export const RING_MS = 45_000;

/** How much longer a call that started at `startedAt` rings (0: it rang long enough). */
export function ringTimeLeft(startedAt: string, now = Date.now()): number {
  const started = Date.parse(startedAt);
  if (Number.isNaN(started)) return RING_MS;
  return Math.max(0, Math.min(RING_MS, started + RING_MS - now));
}

/** converseId → who is in its call now (a converse with nobody in a call has no entry). */
export type CallRosters = Record<string, CallParticipant[]>;

/** The rosters after a `call:updated` (or the answer of `GET …/call`): an empty list ends the call's entry. */
export function applyCallState(rosters: CallRosters, state: CallState): CallRosters {
  if (state.participants.length === 0) {
    if (!(state.converseId in rosters)) return rosters;
    const next = { ...rosters };
    delete next[state.converseId];
    return next;
  }
  return { ...rosters, [state.converseId]: state.participants };
}

/**
 * Where my call stands. `connecting`: asking for a token and joining;
 * `calling`: in a DM call the other has not joined yet; `live`: in it;
 * `declined`, `no-answer`, `ended` (before an answer), `failed`: over, shown until dismissed.
 */
export type CallPhase = 'connecting' | 'calling' | 'live' | 'declined' | 'no-answer' | 'ended' | 'failed';

/** A DM call of mine: still calling until the roster lists someone else; once they were in, it stays live. */
export function dmPhase(phase: CallPhase, roster: readonly CallParticipant[] | undefined, meId: string): CallPhase {
  if (phase !== 'calling') return phase;
  return roster?.some((p) => p.userId !== meId) ? 'live' : 'calling';
}

/** An incoming call stops ringing once nobody is in it (the caller gave up) or I am (answered here or elsewhere). */
export function ringStops(state: CallState, meId: string): boolean {
  return state.participants.length === 0 || state.participants.some((p) => p.userId === meId);
}

/** "1 min 5 s", "42 s", "1 h 3 min": a call's length, as the timeline shows it. */
export function formatCallDuration(totalSec: number): string {
  const sec = Math.max(0, Math.round(totalSec));
  const h = Math.floor(sec / 3600);
  const min = Math.floor((sec % 3600) / 60);
  const s = sec % 60;
  if (h > 0) return min > 0 ? `${h} h ${min} min` : `${h} h`;
  if (min > 0) return s > 0 ? `${min} min ${s} s` : `${min} min`;
  return `${s} s`;
}

/** The line a call record shows in a DM's timeline, from the point of view of `mine` (I called). */
export function callRecordText(record: CallRecord, mine: boolean): string {
  switch (record.outcome) {
    case 'missed':
      return t(mine ? 'calls.record.notAnswered' : 'calls.record.missed');
    case 'declined':
      return t('calls.record.declined');
    case 'ended':
      return t('calls.record.ended', { duration: formatCallDuration(record.durationSec) });
  }
}
