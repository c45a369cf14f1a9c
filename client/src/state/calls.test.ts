import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, bob } from '../test/fixtures.ts';
import { forgetAccountState } from './account-state.ts';
import { RING_MS } from './call-logic.ts';
import { applyCallUpdate, applyDeclined, applyRinging, deviceFailure, useCalls } from './calls.ts';
import { initialState, setState } from './store.ts';

const DM = 'd'.repeat(24);
const joinedAt = '2026-03-01T10:00:00.000Z';
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
    applyRinging({ converseId: DM, callerId: bob.id });
    expect(useCalls.getState().ringing).toEqual({ converseId: DM, callerId: bob.id });
    vi.advanceTimersByTime(RING_MS - 1);
    expect(useCalls.getState().ringing).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('stops when the caller hangs up (the call has nobody left)', () => {
    applyRinging({ converseId: DM, callerId: bob.id });
    applyCallUpdate({ converseId: DM, participants: inCall(bob.id) });
    expect(useCalls.getState().ringing).not.toBeNull();
    applyCallUpdate({ converseId: DM, participants: [] });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('stops when I answer on another device, or decline there', () => {
    applyRinging({ converseId: DM, callerId: bob.id });
    applyCallUpdate({ converseId: DM, participants: inCall(bob.id, alice.id) });
    expect(useCalls.getState().ringing).toBeNull();

    applyRinging({ converseId: DM, callerId: bob.id });
    applyDeclined({ converseId: DM, userId: alice.id });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('does not ring for a call I started myself', () => {
    applyRinging({ converseId: DM, callerId: alice.id });
    expect(useCalls.getState().ringing).toBeNull();
  });

  it('a ring that restarts gets its full time again, and sign-out silences it', () => {
    applyRinging({ converseId: DM, callerId: bob.id });
    vi.advanceTimersByTime(RING_MS / 2);
    applyRinging({ converseId: DM, callerId: bob.id });
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
