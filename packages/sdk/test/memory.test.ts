import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { backingBytesOf, CircuitBreaker, sweepStale, sweepStaleNow, withOwnObjectIds } from '../src/index.ts';
import { MAX_DESTINATIONS } from '../src/delivery/circuit-breaker.ts';

describe('what a long-running node keeps', () => {
  it('an entry past its TTL leaves at the sweep though nobody reads it again', () => {
    let now = 1_000_000;
    const cache = sweepStale(
      new LRUCache<string, string>({ max: 1000, ttl: 60_000, ttlResolution: 0, perf: { now: () => now } }),
    );
    for (let i = 0; i < 100; i += 1) cache.set(`session-${i}`, 'live');
    now += 30_000;
    cache.set('recent', 'live');
    now += 31_000;
    // Without the sweep the cache holds every one until 1000 have passed.
    assert.equal(cache.size, 101);
    sweepStaleNow();
    assert.deepEqual([...cache.keys()], ['recent']);
  });

  it('ids copied out of the shared buffer pool keep their values and nothing else', () => {
    const message = {
      _id: new Types.ObjectId(),
      converseId: new Types.ObjectId(),
      mentions: [new Types.ObjectId(), new Types.ObjectId()],
      reply: { authorId: new Types.ObjectId() },
      createdAt: new Date(0),
    };
    const hex = JSON.stringify(message);
    assert.ok(backingBytesOf(message._id) >= 8192, 'a new id is a slice of a pool slab');
    assert.equal(withOwnObjectIds(message), message, 'in place');
    assert.equal(JSON.stringify(message), hex);
    assert.ok(message.mentions[1] instanceof Types.ObjectId);
    for (const id of [message._id, message.converseId, ...message.mentions, message.reply.authorId])
      assert.equal(backingBytesOf(id), 5 * 12, 'one buffer of 5 ids for the whole message');
  });

  it('a circuit breaker forgets the destination that failed longest ago past its bound', () => {
    const breaker = new CircuitBreaker(1, 1000);
    for (let i = 0; i <= MAX_DESTINATIONS; i += 1) breaker.failure(`https://host-${i}.example`);
    assert.equal(breaker.size, MAX_DESTINATIONS);
    assert.equal(breaker.waitFor('https://host-0.example'), 0, 'the oldest is forgotten');
    assert.ok(breaker.waitFor(`https://host-${MAX_DESTINATIONS}.example`) > 0, 'the newest is remembered');
  });
});
