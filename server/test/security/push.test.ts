import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { DmConverse, Message } from '@im/protocol';
import { eventually, startApi, type ApiHarness } from '../api/harness.ts';
import { browserSubscription, PushEndpoint } from '../push/push-endpoint.ts';
import { until } from '../realtime/client.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Err = { error: { code: string } };
type SubscriptionInfo = { endpoint: string; createdAt: string };

/**
 * A push service that never answers: it takes each request and holds it
 * open until the test lets go (a black hole, or a host an attacker slows on
 * purpose). Counts the requests it holds and those the sender gave up on.
 */
class HoldingEndpoint {
  held: ServerResponse[] = [];
  abandoned = 0;
  readonly #server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    this.held.push(res);
    res.on('close', () => {
      if (!res.writableEnded) this.abandoned += 1;
    });
  });

  /** Listens on another loopback address than the other receivers: another host. */
  async start(host: string): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, host, resolve));
    return `http://${host}:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Web Push and mobile registrations used against others: amplification, takeover, stalls, leaks. */
describe('Web Push and devices against abuse', () => {
  let api: ApiHarness;
  let good: PushEndpoint;
  let goodOrigin: string;
  let slow: HoldingEndpoint;
  let slowOrigin: string;
  let broken: PushEndpoint;
  let brokenOrigin: string;

  before(async () => {
    good = new PushEndpoint();
    goodOrigin = await good.start();
    // A push service that answers 503 to every request on /broken/ (a host an attacker named, or one gone for good).
    broken = new PushEndpoint();
    broken.status = (req) => (req.url?.startsWith('/broken/') ? 503 : 201);
    brokenOrigin = await broken.start('127.0.0.3');
    slow = new HoldingEndpoint();
    slowOrigin = await slow.start('127.0.0.2');
    api = await startApi(import.meta.url, {
      // Both receivers are on loopback, which the outbound guard refuses unless named.
      OUTBOUND_ALLOW: '127.0.0.0/8',
      PUSH_PROXY_URL: `${goodOrigin}/proxy`,
      // Few delivery slots, so that a host taking them all would be seen; requests are never
      // given up on by time here (the held ones must stay held while the test looks).
      PUSH_CONCURRENCY: '4',
      PUSH_TIMEOUT_MS: '120000',
      OUTBOUND_TIMEOUT_MS: '120000',
    });
  });
  after(async () => {
    await slow.stop();
    await api.close();
    await good.stop();
    await broken.stop();
  });

  const postsTo = (path: string) => good.received.filter((r) => r.path === path);
  const subscribe = (user: User, json: unknown) =>
    api.request<Err>('POST', '/api/push/subscriptions', { token: user.token, body: json });
  const listSubscriptions = async (user: User) => {
    const res = await api.request<SubscriptionInfo[]>('GET', '/api/push/subscriptions', { token: user.token });
    assert.equal(res.status, 200);
    return res.body;
  };
  /** A DM from `from` to `to` (offline: no socket), answered when stored. */
  const dm = async (from: User, to: User, content: string) => {
    const converse = (await api.request<DmConverse>('POST', '/api/dms', { token: from.token, body: { userId: to.id } }))
      .body;
    const sent = await api.request<Message>('POST', `/api/converses/${converse.id}/messages`, {
      token: from.token,
      body: { content },
    });
    assert.equal(sent.status, 201);
    return sent.body;
  };

  it('keeps at most 10 subscriptions per user: the 11th replaces the oldest, a DM makes 10 requests', async () => {
    const sender = await api.user('cap');
    const target = await api.user('cap');
    const paths = Array.from({ length: 11 }, (_, i) => `/cap/${target.id}/${i}`);
    for (const path of paths)
      assert.equal((await subscribe(target, browserSubscription(goodOrigin + path).json)).status, 201);

    await dm(sender, target, 'how many of you are there?');
    await until('the DM pushed', () => paths.some((p) => postsTo(p).length > 0), 15_000);
    // Each subscription stored is one request per notification (notify reads them all).
    const stored = await api.node.app.mongo!.collection('pushsubscriptions').countDocuments({
      endpoint: { $in: paths.map((p) => goodOrigin + p) },
    });
    assert.equal(stored, 10, 'one user holds at most 10 subscriptions');
    await until('10 requests', () => paths.filter((p) => postsTo(p).length > 0).length === 10, 15_000);
    assert.equal(postsTo(paths[0]!).length, 0, 'the oldest was replaced');

    const mine = await listSubscriptions(target);
    assert.deepEqual(
      mine.map((s) => s.endpoint),
      paths.slice(1).map((p) => goodOrigin + p),
      'mine, oldest first',
    );
    for (const s of mine) {
      // Exactly {endpoint, createdAt}: the subscription's keys never leave the server.
      assert.deepEqual(Object.keys(s).sort(), ['createdAt', 'endpoint']);
      assert.ok(!Number.isNaN(Date.parse(s.createdAt)), s.createdAt);
    }
    assert.deepEqual(await listSubscriptions(sender), [], "another user's list is their own");
  });

  it('refuses to move an endpoint or a device token to another user; its owner registers it again freely', async () => {
    const sender = await api.user('own');
    const victim = await api.user('own');
    const attacker = await api.user('own');
    const endpoint = `${goodOrigin}/owned/${victim.id}`;
    const victimSub = browserSubscription(endpoint);
    assert.equal((await subscribe(victim, victimSub.json)).status, 201);

    // The attacker registers the victim's endpoint with keys of their own.
    const taken = await subscribe(attacker, browserSubscription(endpoint).json);
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.code, 'IM_ERR_CONFLICT');
    assert.deepEqual(await listSubscriptions(attacker), []);
    // Nor can the attacker remove it.
    await api.request('DELETE', '/api/push/subscriptions', { token: attacker.token, body: { endpoint } });

    const deviceToken = `device-${victim.id}`;
    const device = (user: User) =>
      api.request<Err>('POST', '/api/push/devices', {
        token: user.token,
        body: { platform: 'android', token: deviceToken },
      });
    assert.equal((await device(victim)).status, 201);
    const takenDevice = await device(attacker);
    assert.equal(takenDevice.status, 409);
    assert.equal(takenDevice.body.error.code, 'IM_ERR_CONFLICT');

    // The victim still gets their own notifications, readable with their own keys, on both channels.
    const first = await dm(sender, victim, 'still yours');
    await until('the push', () => postsTo(new URL(endpoint).pathname).length === 1, 15_000);
    assert.equal(
      (victimSub.decrypt(postsTo(new URL(endpoint).pathname)[0]!.body) as { messageId: string }).messageId,
      first.id,
    );
    const proxied = () =>
      postsTo('/proxy')
        .map((r) => JSON.parse(r.body.toString()) as { token: string; payload: { messageId: string } })
        .filter((p) => p.token === deviceToken);
    await until('the mobile push', () => proxied().length === 1, 15_000);
    assert.equal(proxied()[0]!.payload.messageId, first.id);

    // Re-subscribing the same endpoint (new keys after the browser renewed them) and the same device is fine.
    const renewed = browserSubscription(endpoint);
    assert.equal((await subscribe(victim, renewed.json)).status, 201);
    assert.equal((await device(victim)).status, 201);
    assert.deepEqual(
      (await listSubscriptions(victim)).map((s) => s.endpoint),
      [endpoint],
    );
    const second = await dm(sender, victim, 'new keys');
    await until('the second push', () => postsTo(new URL(endpoint).pathname).length === 2, 15_000);
    assert.equal(
      (renewed.decrypt(postsTo(new URL(endpoint).pathname)[1]!.body) as { messageId: string }).messageId,
      second.id,
    );
  });

  it('previews show spoilers as "[spoiler]": Web Push, the push proxy and the inbox', async () => {
    const sender = await api.user('spo');
    const reader = await api.user('spo');
    const path = `/spoiler/${reader.id}`;
    const sub = browserSubscription(goodOrigin + path);
    assert.equal((await subscribe(reader, sub.json)).status, 201);
    const deviceToken = `device-${reader.id}`;
    await api.request('POST', '/api/push/devices', {
      token: reader.token,
      body: { platform: 'ios', token: deviceToken },
    });

    const msg = await dm(sender, reader, 'the murderer is ||the gardener|| **really**');
    await until('the push', () => postsTo(path).length === 1, 15_000);
    const expected = 'the murderer is [spoiler] really';
    assert.equal((sub.decrypt(postsTo(path)[0]!.body) as { preview: string }).preview, expected);
    const proxied = () =>
      postsTo('/proxy')
        .map((r) => JSON.parse(r.body.toString()) as { token: string; payload: { preview: string } })
        .filter((p) => p.token === deviceToken);
    await until('the mobile push', () => proxied().length === 1, 15_000);
    assert.equal(proxied()[0]!.payload.preview, expected);
    const inbox = await api.request<{ items: Array<{ messageId: string; preview: string }> }>(
      'GET',
      '/api/notifications',
      { token: reader.token },
    );
    assert.deepEqual(
      inbox.body.items.map((n) => [n.messageId, n.preview]),
      [[msg.id, expected]],
    );
  });

  it("a host that holds its requests open does not hold back another user's notification", async () => {
    const attacker = await api.user('hold');
    const puppet = await api.user('hold');
    for (let i = 0; i < 10; i += 1)
      assert.equal((await subscribe(puppet, browserSubscription(`${slowOrigin}/hold/${i}`).json)).status, 201);
    // 20 requests to the host that never answers, more than there are delivery slots.
    await dm(attacker, puppet, 'one');
    await dm(attacker, puppet, 'two');
    await until('the slow host holding requests', () => slow.held.length > 0, 15_000);

    const sender = await api.user('hold');
    const victim = await api.user('hold');
    const path = `/hold-victim/${victim.id}`;
    assert.equal((await subscribe(victim, browserSubscription(goodOrigin + path).json)).status, 201);
    await dm(sender, victim, 'are you there?');
    await until("the victim's push while the slow host holds its requests", () => postsTo(path).length === 1, 15_000);
    assert.ok(slow.held.length > 0 && slow.abandoned === 0, 'delivered while the slow host still held its requests');
    // The slow host got at most its share of the slots, not all of them.
    assert.ok(slow.held.length < 4, `${slow.held.length} requests held at once`);
  });

  const failingSince = async (endpoint: string) =>
    (
      await api.node.app
        .mongo!.collection<{ endpoint: string; failingSince?: Date }>('pushsubscriptions')
        .findOne({ endpoint })
    )?.failingSince;

  it("removes a subscription that kept failing past 7 days; the user's healthy one keeps receiving", async () => {
    const sender = await api.user('gone');
    const user = await api.user('gone');
    const failing = `${brokenOrigin}/broken/${user.id}`;
    const healthy = `/healthy/${user.id}`;
    assert.equal((await subscribe(user, browserSubscription(failing).json)).status, 201);
    assert.equal((await subscribe(user, browserSubscription(goodOrigin + healthy).json)).status, 201);

    await dm(sender, user, 'one');
    await until('the healthy push', () => postsTo(healthy).length === 1, 15_000);
    const since = await eventually(
      () => failingSince(failing),
      (d) => d !== undefined,
      15_000,
    );
    assert.ok(since instanceof Date, 'the first failure is recorded on the subscription');
    // It has been failing for 8 days (set back rather than waited for): its next failure removes it.
    await api.node.app
      .mongo!.collection('pushsubscriptions')
      .updateOne({ endpoint: failing }, { $set: { failingSince: new Date(Date.now() - 8 * 24 * 3600_000) } });
    await dm(sender, user, 'two');
    const listed = await eventually(
      () => listSubscriptions(user),
      (subs) => !subs.some((s) => s.endpoint === failing),
      15_000,
    );
    assert.deepEqual(
      listed.map((s) => s.endpoint),
      [goodOrigin + healthy],
      'the failing one is gone, the healthy one kept',
    );
    await dm(sender, user, 'three');
    await until('the healthy push still', () => postsTo(healthy).length === 3, 15_000);
  });

  it('keeps a failing subscription that answers again before the bound, and forgets it was failing', async () => {
    const sender = await api.user('back');
    const user = await api.user('back');
    const path = `/broken/back/${user.id}`;
    const endpoint = brokenOrigin + path;
    assert.equal((await subscribe(user, browserSubscription(endpoint).json)).status, 201);
    let healed = false;
    const answer = broken.status;
    broken.status = (req) => (req.url === path ? (healed ? 201 : 503) : answer(req));

    await dm(sender, user, 'are you back?');
    const since = await eventually(
      () => failingSince(endpoint),
      (d) => d !== undefined,
      15_000,
    );
    assert.ok(since instanceof Date, 'the failure is recorded on the subscription');
    healed = true;
    // The retry of the same notification gets through.
    await until('the push delivered once it answers', () => broken.received.some((r) => r.path === path), 15_000);
    assert.equal(
      await eventually(
        () => failingSince(endpoint),
        (d) => d === undefined,
        15_000,
      ),
      undefined,
    );
    assert.deepEqual(
      (await listSubscriptions(user)).map((s) => s.endpoint),
      [endpoint],
    );
  });
});

describe('push-subscribe rate limit and PUSH_TIMEOUT_MS', () => {
  let api: ApiHarness;
  let receiver: PushEndpoint;
  let origin: string;
  let silent: HoldingEndpoint;
  let silentOrigin: string;
  before(async () => {
    receiver = new PushEndpoint();
    origin = await receiver.start();
    silent = new HoldingEndpoint();
    silentOrigin = await silent.start('127.0.0.2');
    api = await startApi(import.meta.url, {
      OUTBOUND_ALLOW: '127.0.0.0/8',
      RATE_LIMIT: 'on',
      RATE_LIMITS: 'push-subscribe=3/3600',
      // Push requests are given up on long before other outbound requests would be.
      PUSH_TIMEOUT_MS: '300',
      OUTBOUND_TIMEOUT_MS: '120000',
    });
  });
  after(async () => {
    await silent.stop();
    await api.close();
    await receiver.stop();
  });

  it('gives up on a push request the destination does not answer after PUSH_TIMEOUT_MS', async () => {
    const sender = await api.user('pto');
    const user = await api.user('pto');
    assert.equal(
      (
        await api.request('POST', '/api/push/subscriptions', {
          token: user.token,
          body: browserSubscription(`${silentOrigin}/silent/${user.id}`).json,
        })
      ).status,
      201,
    );
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: sender.token, body: { userId: user.id } }))
      .body;
    await api.request('POST', `/api/converses/${dm.id}/messages`, { token: sender.token, body: { content: 'hello?' } });
    // The request is abandoned by the server (the connection closes unanswered), not held for OUTBOUND_TIMEOUT_MS.
    await until('the unanswered request abandoned', () => silent.abandoned >= 1, 15_000);
  });

  it('counts subscriptions and devices registered per user; past it 429', async () => {
    const user = await api.user('rls');
    const other = await api.user('rls');
    const sub = (u: User, i: number) =>
      api.request<Err>('POST', '/api/push/subscriptions', {
        token: u.token,
        body: browserSubscription(`${origin}/rl/${u.id}/${i}`).json,
      });
    assert.equal((await sub(user, 1)).status, 201);
    assert.equal((await sub(user, 2)).status, 201);
    const device = await api.request('POST', '/api/push/devices', {
      token: user.token,
      body: { platform: 'ios', token: `rl-device-${user.id}` },
    });
    assert.equal(device.status, 201);
    const refused = await sub(user, 3);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'IM_ERR_RATE_LIMITED');
    assert.equal((await sub(other, 1)).status, 201, "another user's count is their own");
  });
});

describe('notifications past their TTL (Redis stream queue)', () => {
  let api: ApiHarness;
  let receiver: PushEndpoint;
  let origin: string;
  before(async () => {
    receiver = new PushEndpoint();
    origin = await receiver.start();
    api = await startApi(import.meta.url, (env) => ({
      OUTBOUND_ALLOW: '127.0.0.1',
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
    }));
  });
  after(async () => {
    await api.close();
    await receiver.stop();
  });

  const expiredCount = async () =>
    Number(
      /^im_push_failed_total\{channel="webpush",reason="expired"\} (\d+)/m.exec(
        await (await fetch(`${api.base}/metrics`)).text(),
      )?.[1] ?? 0,
    );

  it('drops a job still waiting after the TTL its push service would keep it for; a fresh one is delivered', async () => {
    // Jobs as the queue stores them: one enqueued two hours ago (held by an open circuit, say), one now.
    const job = (path: string, enqueuedAt: number) => {
      const { json } = browserSubscription(`${origin}${path}`);
      return JSON.stringify({
        id: path,
        attempts: 0,
        enqueuedAt,
        data: { channel: 'webpush', target: { endpoint: json.endpoint, ...json.keys }, payload: '{"type":"dm"}' },
      });
    };
    const before = await expiredCount();
    await api.node.app.redis!.xadd('push:jobs', '*', 'job', job('/stale', Date.now() - 2 * 3600_000));
    await api.node.app.redis!.xadd('push:jobs', '*', 'job', job('/fresh', Date.now()));
    await until('the fresh one delivered', () => receiver.received.some((r) => r.path === '/fresh'), 15_000);
    for (let i = 0; i < 100 && (await expiredCount()) === before; i += 1) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await expiredCount(), before + 1, 'the stale one dropped');
    assert.equal(receiver.received.filter((r) => r.path === '/stale').length, 0);
  });
});
