import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_ROOMS, EVENTS, roomsOf } from '@im/sdk';
import { FANOUT_EVENTS } from '../src/realtime/fanout.ts';
import { RecentIds } from '../src/realtime/recent-ids.ts';

describe('routing realtime events by room', () => {
  it('gives rooms for every event the gateways fan out, but user.updated (a broadcast)', () => {
    assert.deepEqual(
      FANOUT_EVENTS.filter((event) => !Object.hasOwn(EVENT_ROOMS, event)),
      [EVENTS.userUpdated],
    );
    assert.deepEqual(
      Object.keys(EVENT_ROOMS).filter((event) => !FANOUT_EVENTS.includes(event as never)),
      [],
    );
  });

  it('sends DM events to the members, whose sockets may not be in the DM room yet, and a join to the joiner', () => {
    const message = { id: 'm', converseId: 'd1' } as never;
    assert.deepEqual(roomsOf(EVENTS.messageCreated, { message, kind: 'dm', memberIds: ['a', 'b'] }), [
      'c:d1',
      'u:a',
      'u:b',
    ]);
    assert.deepEqual(roomsOf(EVENTS.messageCreated, { message, kind: 'group', groupId: 'g1' }), ['c:d1']);
    assert.deepEqual(
      roomsOf(EVENTS.memberJoined, { groupId: 'g1', userId: 'a', role: 'member', converseIds: ['p'], memberCount: 2 }),
      ['g:g1', 'u:a'],
    );
    assert.deepEqual(roomsOf(EVENTS.presence, { userId: 'a', online: true, groupIds: ['g1', 'g1'] }), ['g:g1']);
  });

  it('remembers the newest ids, up to its capacity', () => {
    const recent = new RecentIds(2);
    assert.equal(recent.seen('a'), false);
    assert.equal(recent.seen('a'), true);
    recent.seen('b');
    recent.seen('c');
    // 'a' was the oldest: gone.
    assert.equal(recent.seen('a'), false);
    assert.equal(recent.seen('c'), true);
  });
});
