import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENTS, RoomRouter } from '@im/sdk';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { RoomSubscriptions } from '../src/realtime/room-subscriptions.ts';

/** Typing notices are the smallest routed event: one converse room each. */
const typingIn = (converseId: string) => ({ converseId, userId: 'someone' });

describe('a gateway subscribed to the rooms it holds, over a real NATS server', () => {
  let env: TestEnv;
  let producer: RoomRouter;
  let gateway: RoomRouter;
  let other: RoomRouter;
  before(async () => {
    env = await openTestEnv(import.meta.url);
    producer = await RoomRouter.connect(env.natsUrl, env.namespace, 'producer');
    gateway = await RoomRouter.connect(env.natsUrl, env.namespace, 'gateway');
    other = await RoomRouter.connect(env.natsUrl, `${env.namespace}-other`, 'other');
  });
  after(async () => {
    await Promise.all([producer?.close(), gateway?.close(), other?.close()]);
    await env?.close();
  });

  /** A gateway over its own rooms, whose linger ends when the test says. */
  const setUp = () => {
    const held = new Set<string>();
    const heard: string[] = [];
    const lingering = new Map<number, () => void>();
    let scheduled = 0;
    const subscriptions = new RoomSubscriptions({
      router: gateway,
      lingerMs: 30_000,
      confirmTimeoutMs: 10_000,
      holds: (room) => held.has(room),
      onDelivery: (_id, _event, payload) => heard.push((payload() as { converseId: string }).converseId),
      schedule: (run) => {
        const key = (scheduled += 1);
        lingering.set(key, run);
        return () => lingering.delete(key);
      },
    });
    const endLingers = () => {
      const runs = [...lingering.values()];
      lingering.clear();
      for (const run of runs) run();
    };
    return { subscriptions, held, heard, lingering, endLingers };
  };

  /** Publishes on `converseId` then on a control room the gateway holds, and waits for the control. */
  const publishThenControl = async (heard: string[], converseId: string, control: string) => {
    producer.publish(EVENTS.typing, typingIn(converseId));
    producer.publish(EVENTS.typing, typingIn(control));
    const deadline = Date.now() + 5_000;
    while (!heard.includes(control) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.ok(heard.includes(control), 'the control room was not heard');
  };

  it('hears a room once prepared, keeps it when it comes back within the linger, drops it after', async () => {
    const { subscriptions, held, heard, lingering, endLingers } = setUp();
    held.add('c:control');
    await subscriptions.prepare(['c:control', 's:not-routed']);
    held.add('c:a');
    subscriptions.hold('c:a');
    await subscriptions.prepare(['c:a']);
    assert.equal(subscriptions.size, 2);
    await publishThenControl(heard, 'a', 'control');
    assert.deepEqual(heard, ['a', 'control']);

    // The last socket leaves and one comes back before the linger ends: still heard.
    held.delete('c:a');
    subscriptions.release('c:a');
    held.add('c:a');
    subscriptions.hold('c:a');
    assert.equal(lingering.size, 0);
    // Left for good: heard until the linger ends, then not at all.
    held.delete('c:a');
    subscriptions.release('c:a');
    assert.equal(subscriptions.size, 2);
    endLingers();
    assert.equal(subscriptions.size, 1);
    heard.length = 0;
    await publishThenControl(heard, 'a', 'control');
    assert.deepEqual(heard, ['control']);
    subscriptions.close();
  });

  it('lets go of a room prepared for a socket that never joined, once the linger ends', async () => {
    const { subscriptions, endLingers } = setUp();
    await subscriptions.prepare(['u:gone', 'g:gone']);
    assert.equal(subscriptions.size, 2);
    endLingers();
    assert.equal(subscriptions.size, 0);
  });

  it('keeps namespaces apart on one NATS server', async () => {
    const { subscriptions, held, heard } = setUp();
    held.add('c:shared');
    held.add('c:control');
    await subscriptions.prepare(['c:shared', 'c:control']);
    other.publish(EVENTS.typing, typingIn('shared'));
    await other.flush();
    await publishThenControl(heard, 'control', 'control');
    assert.deepEqual(heard, ['control', 'control']);
    subscriptions.close();
  });
});
