import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, Message, NotificationPage } from '@im/protocol';
import { groupWithMembers, startApi, type ApiHarness } from '../api/harness.ts';
import { until } from '../realtime/client.ts';
import { browserSubscription, PushEndpoint } from './push-endpoint.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

describe('do not disturb holds pushes back (Web Push and the push proxy), not inbox entries', () => {
  let api: ApiHarness;
  let endpoint: PushEndpoint;
  let origin: string;
  let subscriptions = 0;

  before(async () => {
    endpoint = new PushEndpoint();
    origin = await endpoint.start();
    api = await startApi(import.meta.url, {
      PUSH_PROXY_URL: `${origin}/proxy`,
      // The test's push service and proxy listen on loopback, which the outbound guard refuses unless named.
      OUTBOUND_ALLOW: '127.0.0.1',
      VAPID_SUBJECT: 'mailto:ops@example.org',
    });
  });
  after(async () => {
    await api.close();
    await endpoint.stop();
  });

  const subscribe = async (user: User) => {
    subscriptions += 1;
    const sub = browserSubscription(`${origin}/push/dnd-${subscriptions}`);
    const res = await api.request('POST', '/api/push/subscriptions', { token: user.token, body: sub.json });
    assert.equal(res.status, 201);
    const device = await api.request('POST', '/api/push/devices', {
      token: user.token,
      body: { platform: 'android', token: `device-${user.id}` },
    });
    assert.equal(device.status, 201);
    return sub;
  };
  const webPushesTo = (sub: { json: { endpoint: string } }) =>
    endpoint.received.filter((r) => `${origin}${r.path}` === sub.json.endpoint);
  const proxiedTo = (user: User, messageId: string) =>
    endpoint.received.filter(
      (r) => r.path === '/proxy' && r.body.includes(`device-${user.id}`) && r.body.includes(messageId),
    );
  const send = async (user: User, converseId: string, content: string) => {
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: user.token,
      body: { content },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const inboxOf = async (user: User) =>
    (await api.request<NotificationPage>('GET', '/api/notifications', { token: user.token })).body.items.map(
      (n) => n.messageId,
    );

  it('a mention and a DM reach the inbox of a member in do not disturb but push nothing; the other member is pushed', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 2);
    const [quiet, reachable] = members as [User, User];
    const quietSub = await subscribe(quiet);
    const reachableSub = await subscribe(reachable);
    const dnd = await api.request('PATCH', '/api/users/me', {
      token: quiet.token,
      body: { status: { dnd: true, until: new Date(Date.now() + 3_600_000).toISOString() } },
    });
    assert.equal(dnd.status, 200);

    const mention = await send(owner, converseId, `@${quiet.username} @${reachable.username} standup?`);
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: owner.token, body: { userId: quiet.id } }))
      .body;
    const direct = await send(owner, dm.id, 'a direct word');
    // The reachable member's push went out after the quiet one's would have been decided (same message).
    await until('the reachable member is pushed', () => webPushesTo(reachableSub).length === 1, 10_000);
    await until('and proxied', () => proxiedTo(reachable, mention.id).length === 1, 10_000);
    const quietInbox = await eventuallyInbox(quiet, [mention.id, direct.id]);
    assert.deepEqual(quietInbox.sort(), [mention.id, direct.id].sort(), 'do not disturb keeps the inbox');
    assert.equal(webPushesTo(quietSub).length, 0, 'no Web Push during do not disturb');
    assert.equal(proxiedTo(quiet, mention.id).length + proxiedTo(quiet, direct.id).length, 0, 'no proxy push');

    // Once it is turned off, pushes reach them again.
    await api.request('PATCH', '/api/users/me', { token: quiet.token, body: { status: { dnd: false } } });
    const after = await send(owner, dm.id, 'back?');
    await until('pushed again', () => webPushesTo(quietSub).length >= 1, 10_000);
    await until('proxied again', () => proxiedTo(quiet, after.id).length === 1, 10_000);
    // Pushes queued earlier would have gone out before this one: the only push is the one after.
    assert.deepEqual(
      webPushesTo(quietSub).map((r) => (quietSub.decrypt(r.body) as { messageId: string }).messageId),
      [after.id],
    );
    assert.equal(proxiedTo(quiet, mention.id).length + proxiedTo(quiet, direct.id).length, 0);
  });

  /** The inbox as soon as it holds `ids` (entries are written by an event handler after the send answered). */
  async function eventuallyInbox(user: User, ids: string[]): Promise<string[]> {
    let items: string[] = [];
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      items = await inboxOf(user);
      if (ids.every((id) => items.includes(id))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return items;
  }
});
