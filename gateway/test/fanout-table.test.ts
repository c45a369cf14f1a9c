// The fan-out table is exhaustive: every event is fanned out to sockets or
// named as not fanned out. The `@ts-expect-error` lines must stay errors, so
// `tsc -b` fails the day a table may leave an event out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENTS, type RoutedEventName } from '@im/sdk';
import { FANOUT_EVENTS, NOT_FANNED_OUT, type FannedOutEvent, type FanoutTable } from '../src/realtime/fanout.ts';

/** Fanned-out events that stay broadcasts (not routed by room): see EVENT_ROOMS. */
type Broadcast = Exclude<FannedOutEvent, RoutedEventName>;

describe('fan-out table', () => {
  it('names every event once: fanned out, or not', () => {
    const named: string[] = [...FANOUT_EVENTS, ...NOT_FANNED_OUT];
    assert.deepEqual(named.toSorted(), Object.values(EVENTS).toSorted());
  });

  it('refuses a table that leaves an event out', () => {
    const full = {} as FanoutTable;
    const { [EVENTS.typing]: _typing, ...withoutTyping } = full;
    // @ts-expect-error 'gateway.typing' has no entry
    const _incomplete: FanoutTable = withoutTyping;
    assert.ok(FANOUT_EVENTS.includes(EVENTS.typing));
  });

  it('routes every fanned-out event by room but user.updated (EVENT_ROOMS)', () => {
    const broadcast: Broadcast[] = ['user.updated'];
    const _only: 'user.updated' = broadcast[0]!;
    assert.equal(_only, EVENTS.userUpdated);
  });
});
