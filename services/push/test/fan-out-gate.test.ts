import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryQueue, type Outcome } from '@im/sdk';
import { FanOutGate } from '../src/delivery/fan-out-gate.ts';

/** Every callback queued so far has run (the queue's settlements and the gate's wake-ups are promise chains). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A memory queue whose jobs stay in flight until the test finishes them. */
function heldQueue() {
  const queue = new MemoryQueue<number>();
  const inFlight: Array<() => void> = [];
  queue.start(() => new Promise<Outcome>((resolve) => inFlight.push(() => resolve({ done: true }))), 1000);
  return {
    queue,
    /** Enqueues `n` jobs (they go in flight at once: the backlog grows by n). */
    add: (n: number) => queue.enqueue(Array.from({ length: n }, (_, i) => i)),
    /** Finishes the `n` oldest jobs in flight. */
    finish: async (n: number) => {
      for (const done of inFlight.splice(0, n)) done();
      await settled();
    },
  };
}

describe('fan-out gate', () => {
  it('holds a large message while the backlog is at the mark, then lets them through one at a time in order as jobs settle', async () => {
    const { queue, add, finish } = heldQueue();
    const gate = new FanOutGate(queue, 10);
    (await gate.admit(Infinity))(); // empty queue: no wait

    await add(10);
    const order: number[] = [];
    const waiting = [1, 2, 3].map(async (n) => {
      const release = await gate.admit(Infinity);
      order.push(n);
      await add(8); // this message's jobs
      release();
    });
    await settled();
    assert.deepEqual(order, [], 'nobody passes while the backlog is at the mark');
    await finish(1);
    assert.deepEqual(order, [1], 'one message, then the backlog is over the mark again');
    await finish(7);
    assert.deepEqual(order, [1], 'still at the mark (10)');
    await finish(1);
    assert.deepEqual(order, [1, 2]);
    await finish(30);
    await Promise.all(waiting);
    assert.deepEqual(order, [1, 2, 3]);
    await queue.stop();
  });

  it('admits small messages side by side while their weights fit under the mark, the next when one releases', async () => {
    const { queue } = heldQueue();
    const gate = new FanOutGate(queue, 10);
    const releases = await Promise.all([gate.admit(3), gate.admit(3), gate.admit(3)]);
    let fourth = false;
    const waiting = gate.admit(3).then((release) => {
      fourth = true;
      release();
    });
    await settled();
    assert.equal(fourth, false, '3 + 3 + 3 in progress: another 3 would pass the mark');
    releases[0]!();
    await waiting;
    assert.equal(fourth, true);
    for (const release of releases) release();
    await queue.stop();
  });

  it('keeps arrival order: a small message waits behind a large one that waits', async () => {
    const { queue, add, finish } = heldQueue();
    const gate = new FanOutGate(queue, 10);
    await add(20);
    const order: string[] = [];
    const large = gate.admit(Infinity).then((release) => {
      order.push('large');
      return release;
    });
    const small = gate.admit(1).then((release) => {
      order.push('small');
      release();
    });
    await finish(15);
    assert.deepEqual(order, ['large'], 'the large one goes alone, the small one after it releases');
    (await large)();
    await small;
    assert.deepEqual(order, ['large', 'small']);
    await queue.stop();
  });

  it('lets everyone through once stopped, or once the queue stops', async () => {
    for (const stopping of ['gate', 'queue'] as const) {
      const { queue, add } = heldQueue();
      const gate = new FanOutGate(queue, 10);
      await add(1000);
      const waiting = Promise.all([gate.admit(1), gate.admit(Infinity)].map(async (admitted) => (await admitted)()));
      await settled();
      if (stopping === 'gate') gate.stop();
      await queue.stop();
      await waiting;
      (await gate.admit(Infinity))(); // and no wait after
    }
  });
});
