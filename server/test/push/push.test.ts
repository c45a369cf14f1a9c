import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, Group, Invite, Message } from '@im/protocol';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, until, type ClientSocket } from '../realtime/client.ts';
import { browserSubscription, PushEndpoint, verifyVapid } from './push-endpoint.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Inbox = {
  items: Array<{ kind: string; messageId: string; converseId: string; preview: string }>;
  nextCursor: string | null;
};

for (const mode of ['memory queue', 'Redis stream queue'] as const) {
  describe(`push notifications (${mode})`, () => {
    let api: ApiHarness;
    let endpoint: PushEndpoint;
    let origin: string;
    const sockets: ClientSocket[] = [];
    let subscriptionCounter = 0;

    before(async () => {
      endpoint = new PushEndpoint();
      origin = await endpoint.start();
      api = await startApi(import.meta.url, (env) => ({
        PUSH_PROXY_URL: `${origin}/proxy`,
        // The test's push service and proxy listen on loopback, which the outbound guard refuses unless named.
        OUTBOUND_ALLOW: '127.0.0.1',
        VAPID_SUBJECT: 'mailto:ops@example.org',
        ...(mode === 'Redis stream queue' ? { REDIS_URL: env.redisUrl, REDIS_KEY_PREFIX: env.redisPrefix } : {}),
      }));
    });
    after(async () => {
      for (const s of sockets) s.disconnect();
      await api.close();
      await endpoint.stop();
    });

    const subscribe = async (user: User) => {
      subscriptionCounter += 1;
      const sub = browserSubscription(`${origin}/push/${subscriptionCounter}`);
      assert.equal(
        (await api.request('POST', '/api/push/subscriptions', { token: user.token, body: sub.json })).status,
        201,
      );
      return sub;
    };
    const pushesTo = (sub: { json: { endpoint: string } }) =>
      endpoint.received.filter((r) => `${origin}${r.path}` === sub.json.endpoint);
    const group = async (n: number) => {
      const owner = await api.user('po');
      const g = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Push' } })).body;
      const { code } = (
        await api.request<Invite>('POST', `/api/groups/${g.id}/invites`, { token: owner.token, body: {} })
      ).body;
      const members: User[] = [];
      for (let i = 0; i < n; i += 1) {
        const u = await api.user('pm');
        await api.request('POST', `/api/invites/${code}/accept`, { token: u.token });
        members.push(u);
      }
      return { owner, members, converseId: g.panels[0]!.converseId };
    };
    const send = (u: User, converseId: string, content: string) =>
      api.request<Message>('POST', `/api/converses/${converseId}/messages`, { token: u.token, body: { content } });

    it('pushes a mention to an offline member only, VAPID-signed and encrypted, and files it in both inboxes', async () => {
      const { owner, members, converseId } = await group(2);
      const [offline, online] = members as [User, User];
      const offSub = await subscribe(offline);
      const onSub = await subscribe(online);
      const socket = await connectClient(api.base, online.token);
      sockets.push(socket);
      const msg = (await send(owner, converseId, `hey @${offline.username} and @${online.username}`)).body;
      await until('one push', () => pushesTo(offSub).length === 1);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(pushesTo(offSub).length, 1);
      assert.equal(pushesTo(onSub).length, 0, 'members with a socket get no push');

      const push = pushesTo(offSub)[0]!;
      const vapid = await verifyVapid(push.headers, origin);
      assert.equal(vapid.sub, 'mailto:ops@example.org');
      const key = (await api.request<{ key: string }>('GET', '/api/push/vapid-public-key', { token: owner.token })).body
        .key;
      assert.equal(vapid.k, key);
      assert.equal(push.headers['content-encoding'], 'aes128gcm');
      assert.deepEqual(offSub.decrypt(push.body), {
        type: 'mention',
        converseId,
        messageId: msg.id,
        seq: msg.seq,
        authorId: owner.id,
        preview: msg.content,
      });

      const inbox = (await api.request<Inbox>('GET', '/api/notifications', { token: offline.token })).body;
      assert.deepEqual(
        inbox.items.map((n) => [n.kind, n.messageId]),
        [['mention', msg.id]],
      );
      // The in-app inbox keeps a mention whether its reader was online or not; only the push is for the absent.
      assert.deepEqual(
        (await api.request<Inbox>('GET', '/api/notifications', { token: online.token })).body.items.map((n) => [
          n.kind,
          n.messageId,
        ]),
        [['mention', msg.id]],
      );
      await api.request('POST', `/api/converses/${converseId}/ack`, { token: offline.token, body: { seq: msg.seq } });
      await until('inbox cleared', () => false, 300).catch(() => undefined);
      assert.deepEqual(
        (await api.request<Inbox>('GET', '/api/notifications', { token: offline.token })).body.items,
        [],
      );
    });

    it('respects muted converses and mute-all; DMs notify; devices go through the push proxy', async () => {
      const { owner, members, converseId } = await group(2);
      const [muter, silent] = members as [User, User];
      const muterSub = await subscribe(muter);
      const silentSub = await subscribe(silent);
      await api.request('PUT', '/api/notifications/settings', {
        token: muter.token,
        body: { mutedConverseIds: [converseId] },
      });
      const settings = await api.request<{ muteAll: boolean }>('PUT', '/api/notifications/settings', {
        token: silent.token,
        body: { muteAll: true },
      });
      assert.equal(settings.body.muteAll, true);
      await send(owner, converseId, `@${muter.username} @${silent.username} muted?`);
      const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: owner.token, body: { userId: muter.id } }))
        .body;
      assert.equal(
        (
          await api.request('POST', '/api/push/devices', {
            token: muter.token,
            body: { platform: 'ios', token: 'device-token-123' },
          })
        ).status,
        201,
      );
      const dmMsg = (await send(owner, dm.id, 'a direct word')).body;
      await until('DM push', () => pushesTo(muterSub).length === 1);
      await until('proxy push', () => endpoint.received.some((r) => r.path === '/proxy' && r.body.includes(dmMsg.id)));
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(muterSub.decrypt(pushesTo(muterSub)[0]!.body), {
        type: 'dm',
        converseId: dm.id,
        messageId: dmMsg.id,
        seq: 1,
        authorId: owner.id,
        preview: 'a direct word',
      });
      assert.equal(pushesTo(silentSub).length, 0);
      const proxied = JSON.parse(endpoint.received.find((r) => r.path === '/proxy')!.body.toString()) as {
        platform: string;
        token: string;
        payload: { messageId: string };
      };
      assert.equal(proxied.platform, 'ios');
      assert.equal(proxied.token, 'device-token-123');
      assert.equal(proxied.payload.messageId, dmMsg.id);
    });

    it('removes a subscription the push service says is gone (410)', async () => {
      const { owner, members, converseId } = await group(1);
      const sub = await subscribe(members[0]!);
      const gonePath = new URL(sub.json.endpoint).pathname;
      const previous = endpoint.status;
      endpoint.status = (req) => (req.url === gonePath ? 410 : previous(req));
      try {
        await send(owner, converseId, `@${members[0]!.username} still there?`);
        const subs = api.node.app.mongo!.collection('pushsubscriptions');
        await until('subscription removed', () => false, 1).catch(() => undefined);
        for (let i = 0; i < 100 && (await subs.countDocuments({ endpoint: sub.json.endpoint })) > 0; i += 1)
          await new Promise((r) => setTimeout(r, 50));
        assert.equal(await subs.countDocuments({ endpoint: sub.json.endpoint }), 0);
      } finally {
        endpoint.status = previous;
      }
    });

    it('drops a notification for a subscription whose keys cannot be used, once, and still serves the others', async () => {
      const { owner, members, converseId } = await group(1);
      const member = members[0]!;
      const good = await subscribe(member);
      subscriptionCounter += 1;
      const badEndpoint = `${origin}/push/${subscriptionCounter}`;
      // 65 bytes, but not a P-256 point: the browser never made these.
      const bad = { endpoint: badEndpoint, keys: { p256dh: 'A'.repeat(87), auth: good.json.keys.auth } };
      assert.equal(
        (await api.request('POST', '/api/push/subscriptions', { token: member.token, body: bad })).status,
        201,
      );
      const failedCount = async () =>
        Number(
          /^im_push_failed_total\{channel="webpush",reason="invalid-keys"\} (\d+)/m.exec(
            await (await fetch(`${api.base}/metrics`)).text(),
          )?.[1] ?? 0,
        );
      const before = await failedCount();
      const msg = (await send(owner, converseId, `@${member.username} one of two`)).body;
      await until('the good push', () => pushesTo(good).length === 1);
      for (let i = 0; i < 100 && (await failedCount()) === before; i += 1) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1500)); // a retry would come after a second
      assert.equal(await failedCount(), before + 1, 'dropped once, not retried');
      assert.equal(endpoint.received.filter((r) => `${origin}${r.path}` === badEndpoint).length, 0);
      assert.equal((good.decrypt(pushesTo(good)[0]!.body) as { messageId: string }).messageId, msg.id);
    });

    it('delivers everything once the endpoint is back after an outage, none twice', async () => {
      const { owner, members, converseId } = await group(1);
      const sub = await subscribe(members[0]!);
      const previous = endpoint.status;
      endpoint.status = () => 503;
      const sent: string[] = [];
      for (let i = 0; i < 20; i += 1)
        sent.push((await send(owner, converseId, `@${members[0]!.username} outage ${i}`)).body.id);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(pushesTo(sub).length, 0);
      endpoint.status = previous;
      await until('all 20 after recovery', () => pushesTo(sub).length >= 20, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      const ids = pushesTo(sub).map((p) => (sub.decrypt(p.body) as { messageId: string }).messageId);
      assert.deepEqual(ids.sort(), [...sent].sort());
    });

    it('sends 5,000 notifications over a handful of connections', async (t) => {
      // 50 subscriptions: 5 members with the most one user may have (10) each, all mentioned.
      const { owner, members, converseId } = await group(5);
      for (const member of members) for (let i = 0; i < 10; i += 1) await subscribe(member);
      const mentions = members.map((m) => `@${m.username}`).join(' ');
      const before = endpoint.received.length;
      const connectionsBefore = endpoint.connections;
      for (let i = 0; i < 100; i += 1)
        await api.broker.call(
          'chat.send',
          { converseId, content: `bulk ${i} ${mentions}` },
          { meta: { user: { id: owner.id } } },
        );
      const started = performance.now();
      await until('5000 delivered', () => endpoint.received.length - before >= 5000, 60_000);
      t.diagnostic(
        `5,000 encrypted Web Push notifications in ${Math.round(performance.now() - started)} ms (including the 100 sends)`,
      );
      const used = endpoint.connections - connectionsBefore;
      assert.ok(used <= 16, `${used} new connections for 5,000 notifications`);
      const metrics = await (await fetch(`${api.base}/metrics`)).text();
      assert.match(metrics, /^im_push_sent_total\{channel="webpush"\} \d{4,}/m);
    });
  });
}
