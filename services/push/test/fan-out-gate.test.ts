import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FanOutGate } from '../src/delivery/fan-out-gate.ts';

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('fan-out gate', () => {
  it('admits at once below the mark, holds above it, then lets waiters through one at a time in order', async () => {
    let backlog = 0;
    const gate = new FanOutGate(() => backlog, 10, 1);
    (await gate.admit())(); // below the mark: no wait

    backlog = 10;
    const order: number[] = [];
    const waiting = [1, 2, 3].map(async (n) => {
      const release = await gate.admit();
      order.push(n);
      backlog += 8; // this fan-out's jobs
      release();
    });
    await tick();
    assert.deepEqual(order, [], 'nobody passes while the backlog is at the mark');
    backlog = 9;
    await tick();
    assert.deepEqual(order, [1], 'one fan-out, then the backlog is over the mark again');
    backlog = 2; // with the next fan-out's 8 jobs, at the mark again
    await tick();
    assert.deepEqual(order, [1, 2]);
    backlog = 0;
    await Promise.race([Promise.all(waiting), tick(200)]);
    assert.deepEqual(order, [1, 2, 3]);
  });

  it('a new fan-out waits behind those already waiting, even once there is room', async () => {
    let backlog = 20;
    const gate = new FanOutGate(() => backlog, 10, 1);
    const order: string[] = [];
    const first = gate.admit().then((release) => {
      order.push('first');
      return release;
    });
    await tick();
    backlog = 0;
    const second = gate.admit().then((release) => {
      order.push('second');
      release();
    });
    (await first)();
    await second;
    assert.deepEqual(order, ['first', 'second']);
  });

  it('lets everyone through once stopped', async () => {
    const gate = new FanOutGate(() => 1000, 10, 1);
    const waiting = Promise.all([gate.admit(), gate.admit()].map(async (admitted) => (await admitted)()));
    await tick();
    gate.stop();
    await waiting;
  });
});
