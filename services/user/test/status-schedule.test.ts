import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inSchedule, isTimeZone, nextScheduleBoundary } from '@im/protocol';
import { isDnd, nextChangeAt, ownStatus, shownStatus } from '../src/status/user-status.ts';

const at = (iso: string) => Date.parse(iso);

describe('do not disturb on a schedule', () => {
  it('reads the hours in the schedule’s own time zone', () => {
    // 09:00-17:00 in New York is 14:00-22:00 UTC in January (UTC-5).
    const office = { start: '09:00', end: '17:00', timeZone: 'America/New_York' };
    assert.equal(inSchedule(office, at('2026-01-14T13:59:00Z')), false);
    assert.equal(inSchedule(office, at('2026-01-14T14:00:00Z')), true);
    assert.equal(inSchedule(office, at('2026-01-14T21:59:00Z')), true);
    assert.equal(inSchedule(office, at('2026-01-14T22:00:00Z')), false);
    // In July New York is UTC-4: the same wall-clock hours move.
    assert.equal(inSchedule(office, at('2026-07-14T13:30:00Z')), true);
  });

  it('keeps hours that pass midnight with the day they start on', () => {
    // Friday nights only, in Berlin (UTC+1 in winter): Fri 22:00 to Sat 07:00.
    const nights = { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin', days: [5] };
    assert.equal(inSchedule(nights, at('2026-01-16T21:30:00Z')), true, 'Friday 22:30 in Berlin');
    assert.equal(inSchedule(nights, at('2026-01-17T05:30:00Z')), true, 'Saturday 06:30, still Friday night');
    assert.equal(inSchedule(nights, at('2026-01-17T06:30:00Z')), false, 'Saturday 07:30');
    assert.equal(inSchedule(nights, at('2026-01-17T21:30:00Z')), false, 'Saturday night is not on the list');
    assert.equal(inSchedule(nights, at('2026-01-16T05:30:00Z')), false, 'Friday morning belongs to Thursday night');
  });

  it('finds the next start or end as an instant, across a clock change', () => {
    const nights = { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' };
    assert.equal(nextScheduleBoundary(nights, at('2026-01-14T12:00:00Z')), at('2026-01-14T21:00:00Z'));
    assert.equal(nextScheduleBoundary(nights, at('2026-01-14T21:00:00Z')), at('2026-01-15T06:00:00Z'));
    // Berlin moves to summer time on 29 March 2026: 07:00 on the 29th is 05:00 UTC.
    assert.equal(nextScheduleBoundary(nights, at('2026-03-28T22:00:00Z')), at('2026-03-29T05:00:00Z'));
  });

  it('knows IANA zones from made-up ones', () => {
    assert.equal(isTimeZone('Asia/Kolkata'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
  });
});

describe('a stored status read at a time', () => {
  const now = at('2026-01-14T12:00:00Z');
  it('ends do not disturb and the text when their times pass', () => {
    const stored = {
      dnd: true,
      until: new Date(now + 60_000),
      text: 'Lunch',
      emoji: '🍜',
      clearAt: new Date(now + 120_000),
    };
    assert.equal(isDnd(stored, now), true);
    assert.deepEqual(shownStatus(stored, now), { dnd: true, text: 'Lunch', emoji: '🍜' });
    assert.equal(nextChangeAt(stored, now)?.getTime(), now + 60_000);
    assert.equal(isDnd(stored, now + 60_000), false);
    assert.equal(nextChangeAt(stored, now + 60_000)?.getTime(), now + 120_000);
    assert.deepEqual(ownStatus(stored, now + 120_000), { dnd: false });
    assert.equal(nextChangeAt(stored, now + 120_000), undefined);
  });

  it('is in do not disturb inside the schedule’s hours though not set by hand', () => {
    const stored = { dnd: false, schedule: { start: '11:00', end: '13:00', timeZone: 'UTC' } };
    assert.deepEqual(shownStatus(stored, now), { dnd: true });
    assert.deepEqual(ownStatus(stored, now), { dnd: false, schedule: stored.schedule });
    assert.equal(nextChangeAt(stored, now)?.toISOString(), '2026-01-14T13:00:00.000Z');
  });
});
