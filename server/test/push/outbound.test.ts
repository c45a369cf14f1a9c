import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import { Types } from 'mongoose';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { browserSubscription, PushEndpoint } from './push-endpoint.ts';

type Err = { error: { code: string } };

const refusedCount = async (base: string) =>
  Number(
    /^im_push_failed_total\{channel="webpush",reason="refused"\} (\d+)/m.exec(
      await (await fetch(`${base}/metrics`)).text(),
    )?.[1] ?? 0,
  );

/** The outbound guard on the push service: no subscription or delivery may reach inside addresses. */
describe('outbound guard on Web Push (OUTBOUND_ALLOW empty)', () => {
  let api: ApiHarness;
  let receiver: PushEndpoint;
  let origin: string;
  before(async () => {
    receiver = new PushEndpoint();
    origin = await receiver.start();
    api = await startApi(import.meta.url);
  });
  after(async () => {
    await api.close();
    await receiver.stop();
  });

  it('refuses subscriptions to loopback, private, link-local and non-http destinations; nothing stored', async () => {
    const user = await api.user('og');
    const port = new URL(origin).port;
    const subs = api.node.app.mongo!.collection('pushsubscriptions');
    for (const endpoint of [
      `${origin}/push/1`,
      'https://127.0.0.1:9/push',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/push',
      'https://10.1.2.3/push',
      'https://100.64.0.1/push',
      'https://[::ffff:127.0.0.1]/push',
      `http://localhost:${port}/push/2`,
      'ftp://push.example.org/x',
    ]) {
      const res = await api.request<Err>('POST', '/api/push/subscriptions', {
        token: user.token,
        body: browserSubscription(endpoint).json,
      });
      assert.equal(res.status, 400, endpoint);
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION', endpoint);
    }
    assert.equal(await subs.countDocuments({ userId: { $exists: true } }), 0);
    assert.equal(receiver.received.length, 0);
  });

  it('drops a delivery to a name that now resolves to loopback, once, without retrying', async () => {
    const owner = await api.user('og');
    const member = await api.user('og');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Guard' } }))
      .body;
    const { code } = (
      await api.request<{ code: string }>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    await api.request('POST', `/api/invites/${code}/accept`, { token: member.token });
    // As if registered while the name pointed elsewhere (DNS changed since): delivery checks again.
    const sub = browserSubscription(`http://localhost:${new URL(origin).port}/push/rebound`);
    await api.node.app.mongo!.collection('pushsubscriptions').insertOne({
      endpoint: sub.json.endpoint,
      userId: new Types.ObjectId(member.id),
      p256dh: sub.json.keys.p256dh,
      auth: sub.json.keys.auth,
    });
    const before = await refusedCount(api.base);
    const sent = await api.request<Message>('POST', `/api/converses/${group.panels[0]!.converseId}/messages`, {
      token: owner.token,
      body: { content: `@${member.username} are you there?` },
    });
    assert.equal(sent.status, 201);
    for (let i = 0; i < 100 && (await refusedCount(api.base)) === before; i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500)); // a retry would come within a second
    assert.equal(await refusedCount(api.base), before + 1, 'refused once, not retried');
    assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
    assert.equal(receiver.connections, 0, 'not even a connection');
  });
});
