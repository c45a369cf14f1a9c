// test-run: alone (kills the Redis master and times the failover the sentinels make; the figures go in docs/operations.md)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedisSentinel, type RedisSentinelHandle } from '@im/dev-servers';
import type { Group, Invite, Message, OutgoingWebhookWithSecret, Presence, WebhookEventBody } from '@im/protocol';
import { SERVICES_USING_MONGO } from '@im/sdk';
import { Redis } from 'ioredis';
import type { RunningNode } from '../src/node.ts';
import { eventually, expectations, overNats, startApi, startExtraNode, type ApiHarness } from './api/harness.ts';
import { startReceiver } from './integrations/receiver.ts';
import { connectClient, record, sendOverSocket, until, type ClientSocket } from './realtime/client.ts';
import { waitReady } from './spawn-node.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** `promise`, or a failure naming `what` once `ms` passed without it. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A gateway node and a service node over NATS, their Redis a master with a
 * replica behind three sentinels. The master is SIGKILLed while a user
 * sends; the sentinels promote the replica and the platform goes on: ready
 * again, nothing acknowledged lost, nothing stored twice, presence, rate
 * limits and the webhook queue working on the new master.
 */
describe('Redis through Sentinel: the master killed mid-conversation', () => {
  let redis: RedisSentinelHandle;
  let api: ApiHarness;
  let services: RunningNode;
  let watcher: Redis;
  const sockets: ClientSocket[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  const { ok, refused } = expectations(() => api);

  const redisEnv = () => ({
    REDIS_URL: redis.url,
    REDIS_SENTINELS: redis.sentinelList,
    REDIS_SENTINEL_NAME: redis.name,
    RATE_LIMIT: 'on',
    // Sends are many here; searches are few, so their limit shows the shared counter working.
    RATE_LIMITS: 'send=1000/10,sync=1000/60,search=3/600',
  });

  before(async () => {
    redis = await startRedisSentinel();
    api = await startApi(import.meta.url, (env) => ({
      ...overNats('gateway-1')(env),
      SERVICES: 'gateway',
      REDIS_KEY_PREFIX: env.redisPrefix,
      ...redisEnv(),
    }));
    services = await startExtraNode(api, {
      SERVICES: SERVICES_USING_MONGO.join(','),
      NODE_ID: 'services-1',
      OUTBOUND_ALLOW: '127.0.0.1',
      REDIS_KEY_PREFIX: api.env.redisPrefix,
      ...redisEnv(),
    });
    await waitReady(api.base);
    watcher = new Redis({ host: '127.0.0.1', port: redis.sentinelPorts[0]!, lazyConnect: true });
    await watcher.connect();
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    for (const close of closers) await close();
    watcher?.disconnect();
    await services?.stop();
    await api?.close();
    await redis?.stop();
  });

  const join = async (code: string) => {
    const user = await api.user('rs');
    await ok('POST', `/api/invites/${code}/accept`, user);
    return user;
  };
  const open = async (user: User) => {
    const socket = await connectClient(api.base, user.token);
    sockets.push(socket);
    return socket;
  };
  const online = async (viewer: User, ids: string[]) =>
    (await ok<Presence>('GET', `/api/presence?userIds=${ids.join(',')}`, viewer)).online;

  it('goes on after the sentinels promote the replica: nothing acknowledged lost, nothing stored twice', async (t) => {
    const owner = await api.user('rs');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Failover' }, 201);
    const converseId = group.panels[0]!.converseId;
    const { code } = await ok<Invite>('POST', `/api/groups/${group.id}/invites`, owner, {}, 201);
    const reader = await join(code);
    const late = await join(code);
    const rx = await startReceiver();
    closers.push(() => rx.close());
    await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: rx.url },
      201,
    );
    const deliveredIds = () => new Set(rx.received.map((r) => (JSON.parse(r.raw) as WebhookEventBody).message.id));

    const sender = await open(owner);
    const readerSocket = await open(reader);
    const seen = record(readerSocket, 'message:new');

    // Sends until acknowledged, again with the same clientMsgId after a failure (as the web app does).
    const acked: Array<Message & { firstTriedAt: number; ackedAt: number }> = [];
    const failures: string[] = [];
    let attempts = 0;
    let giveUp = false;
    const sendUntilAcked = async (n: number) => {
      const firstTriedAt = Date.now();
      for (;;) {
        if (giveUp) throw new Error('the test ended before this message was acknowledged');
        attempts += 1;
        assert.ok(attempts < 2_000, `gave up after ${attempts} attempts: ${failures.slice(-3).join(' | ')}`);
        try {
          const message = await sendOverSocket(sender, converseId, `m${n}`, `rs-${n}`);
          acked.push({ ...message, firstTriedAt, ackedAt: Date.now() });
          return;
        } catch (err) {
          failures.push((err as Error).message);
          // A client's back-off before it tries again, not a wait for an outcome.
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };

    // Before: acknowledged, delivered live and to the webhook.
    for (let n = 0; n < 5; n += 1) await sendUntilAcked(n);
    await until('the first five at the reader', () => seen.length === 5);
    await until('the first five webhook deliveries', () => deliveredIds().size === 5, 15_000);
    assert.deepEqual(await online(owner, [reader.id, late.id]), [reader.id]);

    const switched = new Promise<{ at: number; to: number }>((resolve) => {
      watcher.on('message', (_channel: string, text: string) => {
        // "<name> <old-ip> <old-port> <new-ip> <new-port>"
        const [name, , , , port] = text.split(' ');
        if (name === redis.name) resolve({ at: Date.now(), to: Number(port) });
      });
    });
    await watcher.subscribe('+switch-master');

    // /ready as a load balancer sees it, for the record of how long the node was out.
    const readiness: Array<{ at: number; ready: boolean }> = [];
    let watching = true;
    const watchReady = (async () => {
      while (watching) {
        const res = await fetch(`${api.base}/ready`).catch(() => undefined);
        const ready = res?.status === 200;
        await res?.body?.cancel();
        if (readiness.at(-1)?.ready !== ready) readiness.push({ at: Date.now(), ready });
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // During: the conversation goes on while the master is killed and replaced.
    let n = 5;
    let killedAt = 0;
    let readyAgainAt = 0;
    let killedPort = 0;
    const sending = (async () => {
      while (!readyAgainAt || acked.filter((m) => m.firstTriedAt > readyAgainAt).length < 8) {
        assert.ok(n < 90, 'the conversation did not recover within 90 messages');
        await sendUntilAcked(n);
        n += 1;
      }
    })();
    // Reported where it is awaited; an early failure must not pass unhandled meanwhile.
    sending.catch(() => undefined);
    let switchMaster: { at: number; to: number };
    try {
      await until('three more acknowledged', () => acked.length >= 8, 10_000);
      killedAt = Date.now();
      killedPort = await redis.killMaster();
      switchMaster = await within(switched, 60_000, '+switch-master');
      assert.notEqual(switchMaster.to, killedPort);
      assert.equal(switchMaster.to, await redis.masterPort());
      await waitReady(api.base, 60_000);
      readyAgainAt = Date.now();
      await sending;
    } finally {
      watching = false;
      giveUp = true;
      await watchReady;
    }

    // After: each message acknowledged is stored once, in order, and none was lost.
    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages?limit=100`, owner);
    const mine = history.filter((m) => m.authorId === owner.id);
    assert.deepEqual(
      mine.map((m) => m.id),
      acked.map((m) => m.id),
    );
    assert.deepEqual(
      mine.map((m) => m.content),
      acked.map((_, i) => `m${i}`),
    );
    const seqs = mine.map((m) => m.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    const stored = (
      await services.app
        .mongo!.collection('messages')
        .find({ clientMsgId: { $exists: true } }, { projection: { clientMsgId: 1 } })
        .toArray()
    ).map((d) => String(d.clientMsgId));
    assert.equal(stored.filter((id) => id.startsWith('rs-')).length, acked.length, 'a clientMsgId stored twice');
    assert.equal(new Set(stored).size, acked.length);

    // Live: every message sent after the failover reached the reader once; none reached it twice.
    const after = acked.filter((m) => m.firstTriedAt > readyAgainAt);
    await until('the messages after the failover at the reader', () =>
      after.every((m) => seen.some((s) => s.id === m.id)),
    );
    const seenIds = seen.map((m) => m.id);
    assert.equal(new Set(seenIds).size, seenIds.length, 'a message reached the reader twice');

    // The webhook queue (a Redis stream) delivers what was sent after the failover.
    await until('webhook deliveries after the failover', () => after.every((m) => deliveredIds().has(m.id)), 30_000);

    // Presence on the new master: a user who connects now is online, and offline when gone.
    assert.deepEqual(await online(owner, [late.id]), []);
    const lateSocket = await open(late);
    assert.deepEqual(
      await eventually(
        () => online(owner, [late.id]),
        (ids) => ids.length === 1,
      ),
      [late.id],
    );
    lateSocket.disconnect();
    assert.deepEqual(
      await eventually(
        () => online(owner, [late.id]),
        (ids) => ids.length === 0,
      ),
      [],
    );

    // Rate limits count on the new master: the fourth search in the window is refused.
    for (let i = 0; i < 3; i += 1) await ok('GET', '/api/search?q=failover', reader);
    await refused('GET', '/api/search?q=failover', reader, 429, 'IM_ERR_RATE_LIMITED');

    // A failover costs a retry at most, answered 503 "retry later": never an internal error.
    for (const failure of failures) assert.match(failure, /IM_ERR_SERVICE_UNAVAILABLE/);

    const outage = readiness.find((r) => !r.ready && r.at >= killedAt);
    const back = readiness.find((r) => r.ready && outage && r.at > outage.at);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const longestWait = Math.max(...acked.map((m) => m.ackedAt - m.firstTriedAt));
    t.diagnostic(
      [
        `+switch-master ${seconds(switchMaster.at - killedAt)} after the kill`,
        outage && back
          ? `/ready failing for ${seconds(back.at - outage.at)}, from ${seconds(outage.at - killedAt)} after the kill`
          : '/ready never seen failing (polled every 50 ms)',
        `the longest a message took from its first try to its acknowledgement: ${seconds(longestWait)}`,
        `${failures.length} failed attempts (${[...new Set(failures)].join(' | ') || 'none'})`,
        `${acked.length} messages acknowledged`,
      ].join('; '),
    );
  });
});
