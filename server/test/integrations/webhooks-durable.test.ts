import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message, OutgoingWebhookWithSecret, WebhookDelivery, WebhookEventBody } from '@im/protocol';
import type { RunningNode } from '../../src/node.ts';
import {
  eventually,
  expectations,
  overNats,
  startApi,
  startExtraNode,
  startSingleNode,
  type ApiHarness,
} from '../api/harness.ts';
import { until } from '../realtime/client.ts';
import { startReceiver } from './receiver.ts';

/**
 * At-least-once outgoing deliveries: two integration nodes sharing the Redis
 * stream deliver each event once, and a single instance that stops with a
 * delivery waiting sends it when it starts again (from the delivery log).
 */
describe('outgoing webhooks: durable, once per event across nodes', () => {
  let api: ApiHarness;
  let second: RunningNode | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  before(async () => {
    api = await startApi(import.meta.url, (env) => ({
      ...overNats('int-a')(env),
      OUTBOUND_ALLOW: '127.0.0.1',
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
    }));
    second = await startExtraNode(api, {
      SERVICES: 'integration',
      NODE_ID: 'int-b',
      OUTBOUND_ALLOW: '127.0.0.1',
      REDIS_URL: api.env.redisUrl,
      REDIS_KEY_PREFIX: api.env.redisPrefix,
    });
  });
  after(async () => {
    for (const close of closers) await close();
    await second?.stop();
    await api.close();
  });
  const { ok } = expectations(() => api);

  it('two integration nodes hear every message; each event is delivered once', async () => {
    const owner = await api.user('dc');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Twice' }, 201);
    const rx = await startReceiver();
    closers.push(() => rx.close());
    await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: rx.url },
      201,
    );
    const sent: Message[] = [];
    for (let i = 0; i < 20; i += 1)
      sent.push(
        await ok<Message>(
          'POST',
          `/api/converses/${group.panels[0]!.converseId}/messages`,
          owner,
          { content: `m${i}` },
          201,
        ),
      );
    await until('20 deliveries', () => rx.received.length >= 20, 15_000);
    await new Promise((r) => setTimeout(r, 1_500));
    const bodies = rx.received.map((r) => JSON.parse(r.raw) as WebhookEventBody);
    assert.equal(bodies.length, 20);
    assert.equal(new Set(bodies.map((b) => b.deliveryId)).size, 20);
    assert.deepEqual(new Set(bodies.map((b) => b.message.id)), new Set(sent.map((m) => m.id)));
  });
});

describe('outgoing webhooks: a single instance restarted with a delivery waiting', () => {
  it('sends it after the restart, with the same delivery id', async () => {
    const api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
    const { ok } = expectations(() => api);
    let restarted: RunningNode | undefined;
    const rx = await startReceiver((_req, i) => ({ status: i === 0 ? 503 : 200 }));
    try {
      const owner = await api.user('rs');
      const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Restart' }, 201);
      const hook = await ok<OutgoingWebhookWithSecret>(
        'POST',
        `/api/groups/${group.id}/webhooks/outgoing`,
        owner,
        { url: rx.url },
        201,
      );
      await ok('POST', `/api/converses/${group.panels[0]!.converseId}/messages`, owner, { content: 'survive' }, 201);
      await until('the first attempt', () => rx.received.length === 1, 10_000);
      await api.node.stop();

      const reopened = await startSingleNode(api.env, { OUTBOUND_ALLOW: '127.0.0.1' });
      restarted = reopened.node;
      // Well before the retry would have been due (about 10 s after the first attempt).
      await until('the delivery after the restart', () => rx.received.length === 2, 8_000);
      const [first, again] = rx.received.map((r) => JSON.parse(r.raw) as WebhookEventBody);
      assert.equal(again!.deliveryId, first!.deliveryId);
      const log = await eventually(
        async () => {
          const res = await fetch(`${reopened.base}/api/groups/${group.id}/webhooks/outgoing/${hook.id}/deliveries`, {
            headers: { authorization: `Bearer ${owner.token}` },
          });
          return (await res.json()) as WebhookDelivery[];
        },
        (entries) => entries[0]?.status === 'delivered',
        2_500,
      );
      assert.deepEqual([log[0]?.status, log[0]?.attempts], ['delivered', 2]);
    } finally {
      await rx.close();
      await restarted?.stop();
      await api.env.close();
    }
  });
});
