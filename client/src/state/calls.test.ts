import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob } from '../test/fixtures.ts';
import { forgetAccountState } from './account-state.ts';
import { RING_MS } from './call-logic.ts';
import { applyCallUpdate, applyDeclined, applyRinging, deviceFailure, useCalls } from './calls.ts';
import { initialState, setState } from './store.ts';

const DM = 'd'.repeat(24);
const joinedAt = '2026-03-01T10:00:00.000Z';
/** Bob's call as `call:ringing` tells it, started `agoMs` before now. */
const ring = (agoMs = 0) => ({
  converseId: DM,
  callerId: bob.id,
  startedAt: new Date(Date.now() - agoMs).toISOString(),
});
const inCall = (...ids: string[]) =>
  ids.map((userId) => ({ userId, joinedAt, audio: true, video: false, screen: false }));

// Alice is signed in; Bob calls her. Both are known, so nothing is asked of a server.
beforeEach(() => {
  vi.useFakeTimers();
  setState({ me: alice, users: { [alice.id]: alice, [bob.id]: bob } });
});
afterEach(() => {
  forgetAccountState();
  setState(initialState());
  vi.useRealTimers();
});

describe('an incoming DM call', () => {
  it('rings for at most 45 s, then stops on its own', () => {
    const event = ring();
    applyRinging(event);
    expect(useCalls.getState().ringing).toEqual(event);
    vi.advanceTimersByTime(RING_MS - 1);
    expect(useCalls.getState().ringing).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('heard late (after a reconnect), rings only for what is left of its 45 s, and not at all past them', () => {
    applyRinging(ring(40_000));
    expect(useCalls.getState().ringing).not.toBeNull();
    vi.advanceTimersByTime(5_000);
    expect(useCalls.getState().ringing).toBeNull();
    applyRinging(ring(RING_MS + 1));
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('stops when the caller hangs up (the call has nobody left)', () => {
    applyRinging(ring());
    applyCallUpdate({ converseId: DM, participants: inCall(bob.id) });
    expect(useCalls.getState().ringing).not.toBeNull();
    applyCallUpdate({ converseId: DM, participants: [] });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('stops when I answer on another device, or decline there', () => {
    applyRinging(ring());
    applyCallUpdate({ converseId: DM, participants: inCall(bob.id, alice.id) });
    expect(useCalls.getState().ringing).toBeNull();

    applyRinging(ring());
    applyDeclined({ converseId: DM, userId: alice.id });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('does not ring for a call I started myself', () => {
    applyRinging({ ...ring(), callerId: alice.id });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('a ring that restarts gets its full time again, and sign-out silences it', () => {
    applyRinging(ring());
    vi.advanceTimersByTime(RING_MS / 2);
    applyRinging(ring());
    vi.advanceTimersByTime(RING_MS - 1);
    expect(useCalls.getState().ringing).not.toBeNull();
    forgetAccountState();
    expect(useCalls.getState().ringing).toBeNull();
  });
});

describe('who is in calls', () => {
  it('follows call:updated, and is forgotten at sign-out', () => {
    applyCallUpdate({ converseId: DM, participants: inCall(bob.id) });
    expect(useCalls.getState().rosters[DM]?.map((p) => p.userId)).toEqual([bob.id]);
    forgetAccountState();
    expect(useCalls.getState().rosters).toEqual({});
  });
});

describe('a microphone or camera that cannot be used', () => {
  it('is explained by why the browser refused it', () => {
    expect(deviceFailure('microphone', new DOMException('no', 'NotAllowedError'))).toMatch(
      /did not allow the microphone/,
    );
    expect(deviceFailure('camera', new DOMException('none', 'NotFoundError'))).toBe('No camera was found');
    expect(deviceFailure('screen', new DOMException('no', 'NotAllowedError'))).toBe('Screen sharing was not allowed');
  });
});
