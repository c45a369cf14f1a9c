import type { CallParticipant } from '@im/protocol';
import { describe, expect, it } from 'vitest';
import { applyCallState, callRecordText, dmPhase, formatCallDuration, ringStops } from './call-logic.ts';

const ME = 'a'.repeat(24);
const OTHER = 'b'.repeat(24);
const person = (userId: string, change: Partial<CallParticipant> = {}): CallParticipant => ({
  userId,
  joinedAt: '2026-03-01T10:00:00.000Z',
  audio: true,
  video: false,
  screen: false,
  ...change,
});

describe('call rosters from call:updated', () => {
  it('keeps the latest list of each converse, and drops a converse whose call ended', () => {
    let rosters = applyCallState({}, { converseId: 'c1', participants: [person(ME)] });
    rosters = applyCallState(rosters, { converseId: 'c2', participants: [person(OTHER)] });
    rosters = applyCallState(rosters, { converseId: 'c1', participants: [person(ME), person(OTHER, { video: true })] });
    expect(rosters.c1!.map((p) => [p.userId, p.video])).toEqual([
      [ME, false],
      [OTHER, true],
    ]);
    rosters = applyCallState(rosters, { converseId: 'c2', participants: [] });
    expect(Object.keys(rosters)).toEqual(['c1']);
  });

  it('answers the same object for the end of a call it never knew (nothing re-renders)', () => {
    const rosters = { c1: [person(ME)] };
    expect(applyCallState(rosters, { converseId: 'c9', participants: [] })).toBe(rosters);
  });
});

describe('a DM call of mine', () => {
  it('is calling until the other person is in it, then live', () => {
    expect(dmPhase('calling', undefined, ME)).toBe('calling');
    expect(dmPhase('calling', [person(ME)], ME)).toBe('calling');
    expect(dmPhase('calling', [person(ME), person(OTHER)], ME)).toBe('live');
  });

  it('keeps any other phase as it is', () => {
    expect(dmPhase('declined', [person(ME), person(OTHER)], ME)).toBe('declined');
    expect(dmPhase('live', [person(ME)], ME)).toBe('live');
  });
});

describe('an incoming call', () => {
  it('stops ringing when the caller gives up or I answered (here or on another device)', () => {
    expect(ringStops({ converseId: 'c', participants: [person(OTHER)] }, ME)).toBe(false);
    expect(ringStops({ converseId: 'c', participants: [] }, ME)).toBe(true);
    expect(ringStops({ converseId: 'c', participants: [person(OTHER), person(ME)] }, ME)).toBe(true);
  });
});

describe('call records', () => {
  it('says how long a call lasted in seconds, minutes and hours', () => {
    expect(formatCallDuration(0)).toBe('0 s');
    expect(formatCallDuration(42)).toBe('42 s');
    expect(formatCallDuration(60)).toBe('1 min');
    expect(formatCallDuration(65)).toBe('1 min 5 s');
    expect(formatCallDuration(3600)).toBe('1 h');
    expect(formatCallDuration(3780)).toBe('1 h 3 min');
  });

  it('words each outcome for the caller and for the one called', () => {
    expect(callRecordText({ outcome: 'missed', durationSec: 30 }, false)).toBe('Missed call');
    expect(callRecordText({ outcome: 'missed', durationSec: 30 }, true)).toBe('Call not answered');
    expect(callRecordText({ outcome: 'declined', durationSec: 3 }, true)).toBe('Call declined');
    expect(callRecordText({ outcome: 'ended', durationSec: 65 }, false)).toBe('Call ended · 1 min 5 s');
  });
});
