import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { openTestEnv, type TestEnv } from '@im/testkit';
import {
  MemoryQueue,
  RedisStreamQueue,
  type DeliveryJob,
  type DeliveryQueue,
  type Outcome,
} from '../src/delivery/queue.ts';

interface TestJob {
  payload: string;
}
const job = (n: number): TestJob => ({ payload: `p${n}` });
const until = async (check: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(check(), 'timed out');
};

describe('delivery queues', () => {
  let env: TestEnv;
  const clients: Redis[] = [];
  const queues: Array<DeliveryQueue<TestJob>> = [];
  before(async () => {
    env = await openTestEnv(import.meta.url);
  });
  after(async () => {
    for (const q of queues) await q.stop();
    for (const c of clients) c.disconnect();
    await env.close();
  });
  // Each test gets its own stream: consumers of one test must not take another's jobs.
  const redis = (stream: string) => {
    const r = new Redis(env.redisUrl, { keyPrefix: `${env.redisPrefix}${stream}:` });
    clients.push(r);
    return r;
  };

  for (const kind of ['memory', 'redis'] as const) {
    it(`${kind}: retries with the attempt count until done, each job handled to completion once`, async () => {
      const q: DeliveryQueue<TestJob> =
        kind === 'memory' ? new MemoryQueue() : new RedisStreamQueue(redis('retries'), 'c1', { name: 'test' });
      queues.push(q);
      const seen = new Map<string, number>();
      const done = new Set<string>();
      q.start(async (j: DeliveryJob<TestJob>): Promise<Outcome> => {
        seen.set(j.data.payload, (seen.get(j.data.payload) ?? 0) + 1);
        if (j.attempts < 2) return { retryInMs: 50, countAttempt: true };
        assert.ok(!done.has(j.data.payload), `${j.data.payload} completed twice`);
        done.add(j.data.payload);
        return { done: true };
      }, 8);
      await q.enqueue(Array.from({ length: 30 }, (_, i) => job(i)));
      await until(() => done.size === 30);
      assert.ok([...seen.values()].every((n) => n === 3));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await q.depth(), 0);
    });
  }

  for (const kind of ['memory', 'redis'] as const) {
    it(`${kind}: a key at its bound parks its other jobs outside the slots; they run in order as its jobs settle`, async () => {
      const q: DeliveryQueue<TestJob> =
        kind === 'memory' ? new MemoryQueue() : new RedisStreamQueue(redis('per-key'), 'c1', { name: 'test' });
      queues.push(q);
      // Jobs of "slow" are held until the test settles them; the others finish at once.
      const held: Array<{ payload: string; settle: () => void }> = [];
      const done: string[] = [];
      q.start(
        (j: DeliveryJob<TestJob>) =>
          new Promise<Outcome>((resolve) => {
            const finish = () => (done.push(j.data.payload), resolve({ done: true }));
            if (j.data.payload.startsWith('slow')) held.push({ payload: j.data.payload, settle: finish });
            else finish();
          }),
        3,
        { keyOf: (data) => (data.payload.startsWith('slow') ? 'slow' : undefined), max: 2 },
      );
      await q.enqueue(Array.from({ length: 6 }, (_, i) => ({ payload: `slow${i}` })));
      await q.enqueue(Array.from({ length: 5 }, (_, i) => job(i)));
      // Two slow jobs hold two of the three slots; the others go through the third meanwhile.
      await until(() => done.length === 5);
      assert.deepEqual(done, ['p0', 'p1', 'p2', 'p3', 'p4']);
      assert.deepEqual(
        held.map((h) => h.payload),
        ['slow0', 'slow1'],
      );
      // Each settled slow job hands its slot to the next parked one, in arrival order.
      for (let next = 2; next < 6; next += 1) {
        held.shift()!.settle();
        await until(() => held.some((h) => h.payload === `slow${next}`));
        assert.equal(held.length, 2);
      }
      for (const h of held.splice(0)) h.settle();
      await until(() => done.length === 11);
      assert.deepEqual(
        done.filter((p) => p.startsWith('slow')),
        ['slow0', 'slow1', 'slow2', 'slow3', 'slow4', 'slow5'],
      );
    });
  }

  it('memory: thousands of jobs, a backlog and more enqueued while it drains, come out in order, each once', async () => {
    const q = new MemoryQueue<TestJob>();
    queues.push(q);
    // A backlog first (large enough for the queue to drop what it has handed out while draining).
    await q.enqueue(Array.from({ length: 3000 }, (_, i) => job(i)));
    assert.equal(await q.depth(), 3000);
    const order: string[] = [];
    let running = 0;
    let maxRunning = 0;
    q.start(async (j: DeliveryJob<TestJob>): Promise<Outcome> => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      order.push(j.data.payload);
      await new Promise((r) => setImmediate(r));
      running -= 1;
      return { done: true };
    }, 16);
    for (let batch = 30; batch < 50; batch += 1) {
      await new Promise((r) => setImmediate(r));
      await q.enqueue(Array.from({ length: 100 }, (_, i) => job(batch * 100 + i)));
    }
    await until(() => order.length === 5000);
    assert.deepEqual(
      order,
      Array.from({ length: 5000 }, (_, i) => `p${i}`),
    );
    assert.equal(maxRunning, 16);
    await until(() => running === 0);
    assert.equal(await q.depth(), 0);
  });

  it('memory: whenBacklogBelow resolves as settled jobs make room (a retry waiting for its time is no backlog), false once stopped', async () => {
    const q = new MemoryQueue<TestJob>();
    queues.push(q);
    assert.equal(await q.whenBacklogBelow(1), false, 'not started: nothing will make room');
    const inFlight: Array<(outcome: Outcome) => void> = [];
    q.start(() => new Promise<Outcome>((resolve) => inFlight.push(resolve)), 2);
    await q.enqueue([job(1), job(2), job(3)]);
    assert.equal(await q.whenBacklogBelow(4), true, 'room already');
    let room: boolean | undefined;
    void q.whenBacklogBelow(3).then((r) => (room = r));
    await new Promise((r) => setImmediate(r));
    assert.equal(room, undefined, 'three jobs: not below three');
    inFlight.shift()!({ retryInMs: 60_000, countAttempt: true });
    await new Promise((r) => setImmediate(r));
    assert.equal(room, true, 'the retry waits for its time, outside the backlog');
    let stopped: boolean | undefined;
    void q.whenBacklogBelow(1).then((r) => (stopped = r));
    await q.stop();
    await new Promise((r) => setImmediate(r));
    assert.equal(stopped, false);
  });

  it('redis: outcomes of many jobs at once (done and retried mixed) are each recorded once', async () => {
    const q = new RedisStreamQueue<TestJob>(redis('many'), 'c1', { name: 'test' });
    queues.push(q);
    const attempts = new Map<string, number>();
    const done = new Set<string>();
    q.start(async (j: DeliveryJob<TestJob>): Promise<Outcome> => {
      attempts.set(j.data.payload, (attempts.get(j.data.payload) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 2));
      if (Number(j.data.payload.slice(1)) % 2 === 1 && j.attempts === 0) return { retryInMs: 20, countAttempt: true };
      assert.ok(!done.has(j.data.payload), `${j.data.payload} completed twice`);
      done.add(j.data.payload);
      return { done: true };
    }, 64);
    await q.enqueue(Array.from({ length: 400 }, (_, i) => job(i)));
    await until(() => done.size === 400, 20_000);
    for (const [payload, n] of attempts) assert.equal(n, Number(payload.slice(1)) % 2 === 1 ? 2 : 1, payload);
    await new Promise((r) => setTimeout(r, 300)); // nothing left over, nothing coming back
    assert.equal(await q.depth(), 0);
  });

  it('redis: a job written flat by the push queue of an earlier version is delivered with its data', async () => {
    const client = redis('flat');
    const q = new RedisStreamQueue<TestJob>(client, 'c1', { name: 'test' });
    queues.push(q);
    const got: Array<DeliveryJob<TestJob>> = [];
    q.start(async (j: DeliveryJob<TestJob>): Promise<Outcome> => {
      got.push(j);
      return { done: true };
    }, 2);
    const flat = { id: 'old-1', payload: 'from before', attempts: 1, enqueuedAt: 1_700_000_000_000 };
    await client.xadd('test:jobs', '*', 'job', JSON.stringify(flat));
    await until(() => got.length === 1);
    assert.deepEqual(got[0], {
      id: 'old-1',
      attempts: 1,
      enqueuedAt: 1_700_000_000_000,
      data: { payload: 'from before' },
    });
  });

  it('redis: jobs of a consumer that died before acknowledging are taken over by another', async () => {
    const client = redis('rescue');
    const dead = new RedisStreamQueue<TestJob>(client, 'dead', { name: 'test', claimEveryMs: 60_000 });
    queues.push(dead);
    let read = 0;
    dead.start(() => {
      read += 1;
      return new Promise<Outcome>(() => undefined); // never finishes: the process "crashed"
    }, 10);
    await dead.enqueue(Array.from({ length: 5 }, (_, i) => job(100 + i)));
    await until(() => read === 5);
    await dead.stop();

    const rescuer = new RedisStreamQueue<TestJob>(redis('rescue'), 'rescuer', {
      name: 'test',
      claimIdleMs: 200,
      claimEveryMs: 100,
    });
    queues.push(rescuer);
    const rescued: string[] = [];
    rescuer.start(async (j) => {
      rescued.push(j.data.payload);
      return { done: true };
    }, 10);
    await until(() => rescued.length === 5);
    assert.deepEqual(rescued.sort(), ['p100', 'p101', 'p102', 'p103', 'p104']);
  });
});
