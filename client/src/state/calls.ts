import { t } from '../i18n/i18n.ts';
import type { CallDeclined, CallJoin, CallRinging, CallState } from '@im/protocol';
import { ApiRequestError, describeError } from '../api/errors.ts';
import { accountStore, forgetOnSignOut } from './account-state.ts';
import {
  applyCallState,
  dmPhase,
  RING_MS,
  ringStops,
  ringTimeLeft,
  type CallPhase,
  type CallRosters,
} from './call-logic.ts';
import { connectRoom, type CallRoom } from './call-room.ts';
import { navigate } from './navigation.ts';
import { getState } from './store.ts';
import { ensureUsers } from './users.ts';
import { api } from '../api/api.ts';

/** The call I am in (or just left with something to say about it). */
export interface MyCall {
  converseId: string;
  /** A voice panel (of `groupId`) or a DM. */
  kind: 'panel' | 'dm';
  groupId?: string;
  /** What the call bar calls it: `#lounge`, or the other person's name. */
  name: string;
  phase: CallPhase;
  /** Why it failed, or a problem short of failing (a refused microphone). */
  error?: string;
  /** False: a listen-only token (muted in the group, or a stage where only admins speak). */
  canPublish: boolean;
  microphone: boolean;
  camera: boolean;
  screen: boolean;
}

interface CallsState {
  rosters: CallRosters;
  /** converseIds whose roster was asked for (GET …/call) since the last connect. */
  asked: Record<string, true>;
  /** An incoming DM call, ringing here. */
  ringing: CallRinging | null;
  mine: MyCall | null;
  /** Bumped on every change in the LiveKit room (tracks, speakers, mutes): its views read the room again. */
  roomVersion: number;
}

export const useCalls = accountStore<CallsState>('calls', () => ({
  rosters: {},
  asked: {},
  ringing: null,
  mine: null,
  roomVersion: 0,
}));

/** The room of my call, and the timers of ringing and of waiting for an answer. */
let live: CallRoom | null = null;
const timers: { ring?: ReturnType<typeof setTimeout>; answer?: ReturnType<typeof setTimeout> } = {};

forgetOnSignOut('call room and timers', () => {
  clearTimeout(timers.ring);
  clearTimeout(timers.answer);
  timers.ring = undefined;
  timers.answer = undefined;
  const room = live;
  live = null;
  void room?.disconnect();
});

/** The LiveKit room of my call, for the views that show its tracks. */
export const currentRoom = (): CallRoom | null => live;

const setMine = (patch: Partial<MyCall>) => useCalls.setState((s) => (s.mine ? { mine: { ...s.mine, ...patch } } : {}));

/** What a server without voice and video answers to joining a call. */
export const unavailableText = (): string => t('calls.unavailable');

function joinFailure(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 503) return unavailableText();
  return t('calls.joinFailed', { reason: describeError(err) });
}

/** The sentence for a microphone or camera the browser refused or could not open. */
export function deviceFailure(what: 'microphone' | 'camera' | 'screen', err: unknown): string {
  // getUserMedia rejects with a DOMException, which is not an Error everywhere.
  const name = typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return what === 'screen' ? t('calls.failure.screenRefused') : t('calls.failure.refused', { what });
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return t('calls.failure.notFound', { what });
  return t('calls.failure.unusable', { what, reason: describeError(err) });
}

/**
 * Joins the converse's call (leaving any other first): a token from the
 * server, the LiveKit room, then the microphone when I may speak. Camera off.
 */
export async function joinCall(target: { converseId: string; kind: 'panel' | 'dm'; groupId?: string; name: string }) {
  if (live || useCalls.getState().mine) await leaveCall();
  const mine: MyCall = {
    ...target,
    phase: 'connecting',
    canPublish: false,
    microphone: false,
    camera: false,
    screen: false,
  };
  useCalls.setState({ mine });
  if (useCalls.getState().ringing?.converseId === target.converseId) stopRinging();
  const stillMine = () => useCalls.getState().mine?.converseId === target.converseId;
  let grant: CallJoin;
  try {
    grant = await api.call('call.join', { converseId: target.converseId });
  } catch (err) {
    if (stillMine()) setMine({ phase: 'failed', error: joinFailure(err) });
    return;
  }
  if (!stillMine()) return;
  let room: CallRoom;
  try {
    room = await connectRoom(grant, {
      // What I publish is read from the room, which the server may change too (a mute in the group mid-call).
      changed: () =>
        useCalls.setState((s) => ({
          roomVersion: s.roomVersion + 1,
          ...(live && s.mine ? { mine: { ...s.mine, ...live.published() } } : {}),
        })),
      permissions: (canPublish) => setMine({ canPublish }),
      ended: () => {
        if (live === room) void endedByServer();
      },
    });
  } catch (err) {
    if (stillMine()) setMine({ phase: 'failed', error: joinFailure(err) });
    return;
  }
  if (!stillMine()) {
    await room.disconnect();
    return;
  }
  live = room;
  const canPublish = room.canPublish();
  const phase =
    target.kind === 'dm' ? dmPhase('calling', useCalls.getState().rosters[target.converseId], meId()) : 'live';
  setMine({ phase, canPublish });
  if (phase === 'calling') {
    clearTimeout(timers.answer);
    timers.answer = setTimeout(() => void giveUp(target.converseId), RING_MS);
  }
  if (canPublish) await setMicrophone(true);
}

const meId = () => getState().me?.id ?? '';

/** Stops waiting for an answer and lets go of the room; `show` sets what the bar says meanwhile. */
async function dropRoom(show: () => void): Promise<void> {
  clearTimeout(timers.answer);
  timers.answer = undefined;
  const room = live;
  live = null;
  show();
  await room?.disconnect();
}

/** Leaves my call, if any; nothing is left to show. */
export const leaveCall = (): Promise<void> => dropRoom(() => useCalls.setState({ mine: null }));

/** Leaves the call but keeps the bar up to say why (`declined`, `no-answer`). */
async function endWith(converseId: string, phase: CallPhase, error?: string): Promise<void> {
  if (useCalls.getState().mine?.converseId !== converseId) return;
  await dropRoom(() =>
    setMine({ phase, microphone: false, camera: false, screen: false, ...(error ? { error } : {}) }),
  );
}

async function giveUp(converseId: string): Promise<void> {
  if (useCalls.getState().mine?.phase === 'calling') await endWith(converseId, 'no-answer');
}

/** LiveKit closed the room (the call ended for everyone, or the connection is gone for good). */
async function endedByServer(): Promise<void> {
  const mine = useCalls.getState().mine;
  if (!mine) return;
  // A DM call that ends before it is answered was most likely declined: `call:declined` says so when it comes.
  if (mine.phase === 'calling') await endWith(mine.converseId, 'ended');
  else await leaveCall();
}

/** Forgets a finished call's bar (Declined, No answer, an error). */
export function dismissCall(): void {
  const mine = useCalls.getState().mine;
  if (mine && !live) useCalls.setState({ mine: null });
}

async function toggleDevice(kind: 'microphone' | 'camera' | 'screen', on: boolean): Promise<void> {
  const room = live;
  if (!room) return;
  try {
    await room.setEnabled(kind, on);
    if (live === room) setMine({ [kind]: on, error: undefined });
  } catch (err) {
    if (live === room) setMine({ [kind]: false, error: deviceFailure(kind, err) });
  }
}

export const setMicrophone = (on: boolean) => toggleDevice('microphone', on);
export const setCamera = (on: boolean) => toggleDevice('camera', on);
export const setScreenShare = (on: boolean) => toggleDevice('screen', on);

/** `call:updated`, and the answer of `GET …/call`. */
export function applyCallUpdate(state: CallState): void {
  const me = meId();
  useCalls.setState((s) => ({ rosters: applyCallState(s.rosters, state) }));
  ensureUsers(state.participants.map((p) => p.userId));
  const { ringing, mine } = useCalls.getState();
  if (ringing?.converseId === state.converseId && ringStops(state, me)) stopRinging();
  // A DM call is over when the other person hangs up.
  if (mine?.converseId === state.converseId && mine.kind === 'dm' && mine.phase === 'live' && live) {
    if (!state.participants.some((p) => p.userId !== me)) void leaveCall();
    return;
  }
  if (mine?.converseId === state.converseId && mine.phase === 'calling') {
    const phase = dmPhase(mine.phase, state.participants, me);
    if (phase !== mine.phase) {
      clearTimeout(timers.answer);
      timers.answer = undefined;
      setMine({ phase });
    }
  }
}

/** Who is in the converse's call, asked once per connect (a sidebar with voice panels asks as it shows). */
export async function loadCallState(converseId: string): Promise<void> {
  if (useCalls.getState().asked[converseId]) return;
  useCalls.setState((s) => ({ asked: { ...s.asked, [converseId]: true } }));
  try {
    applyCallUpdate(await api.call('call.state', { converseId }));
  } catch {
    // Nothing to show: the next connect asks again.
    useCalls.setState((s) => {
      const asked = { ...s.asked };
      delete asked[converseId];
      return { asked };
    });
  }
}

/** After a reconnect, events may have been missed: the rosters shown are asked for again. */
export function refreshCallStates(): void {
  const known = [...new Set([...Object.keys(useCalls.getState().asked), ...Object.keys(useCalls.getState().rosters)])];
  useCalls.setState({ asked: {} });
  for (const converseId of known) void loadCallState(converseId);
}

/**
 * `call:ringing`, or a call found ringing after a connect: someone calls me
 * in a DM; it rings until RING_MS after the call started.
 */
export function applyRinging(event: CallRinging): void {
  if (event.callerId === meId() || useCalls.getState().mine?.converseId === event.converseId) return;
  const left = ringTimeLeft(event.startedAt);
  if (left === 0) return;
  ensureUsers([event.callerId]);
  clearTimeout(timers.ring);
  useCalls.setState({ ringing: event });
  timers.ring = setTimeout(stopRinging, left);
}

/** After a connect: a DM call that started ringing while this app was away (or not open) rings here too. */
export async function loadRinging(): Promise<void> {
  try {
    const calls = await api.call('call.ringing');
    const first = calls.find((c) => ringTimeLeft(c.startedAt) > 0);
    if (first && !useCalls.getState().ringing) applyRinging(first);
  } catch {
    // Nothing rings that we know of; `call:ringing` still arrives for new calls.
  }
}

export function stopRinging(): void {
  clearTimeout(timers.ring);
  timers.ring = undefined;
  useCalls.setState({ ringing: null });
}

/** `call:declined`: my call was declined (I hang up), or I declined on another device (stop ringing). */
export function applyDeclined(event: CallDeclined): void {
  if (event.userId === meId()) {
    if (useCalls.getState().ringing?.converseId === event.converseId) stopRinging();
    return;
  }
  void endWith(event.converseId, 'declined');
}

/** Accept: join the ringing DM's call. */
export async function acceptCall(name: string): Promise<void> {
  const ringing = useCalls.getState().ringing;
  if (!ringing) return;
  stopRinging();
  navigate({ name: 'dm', converseId: ringing.converseId });
  await joinCall({ converseId: ringing.converseId, kind: 'dm', name });
}

/** Decline: the server ends the call and tells the caller. */
export async function declineCall(): Promise<void> {
  const ringing = useCalls.getState().ringing;
  if (!ringing) return;
  stopRinging();
  // 409: the call had ended already; nothing else to do either way.
  await api.call('call.decline', { converseId: ringing.converseId }).catch(() => undefined);
}
