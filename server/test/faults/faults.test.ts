// test-run: alone (hosts as network namespaces, servers killed and links cut: it measures what each fault costs)
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, type TestContext } from 'node:test';
import type { Group, Invite, Message } from '@im/protocol';
import { waitUntil } from '@im/dev-servers';
import { hostNetworkAvailable } from '@im/testkit';
import { until } from '../realtime/client.ts';
import { FAULT_HOSTS, openFaultCluster, type FaultCluster } from './fault-cluster.ts';
import { history, MemberApp, ok, sendUntilAcknowledged, type SendOutcome, type User } from './fault-client.ts';

const unavailable = hostNetworkAvailable();

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Waits until a gateway answers /ready with 200 (NATS, Redis and every service back). */
const waitReady = (base: string) =>
  waitUntil(
    `${base}/ready`,
    async () => {
      const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.status !== 200) throw new Error(`${res.status}`);
    },
    120_000,
  );

/** Waits until a gateway says it is not ready (it noticed a dependency gone). */
const waitNotReady = (base: string) =>
  waitUntil(
    `${base}/ready not ready`,
    async () => {
      const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) throw new Error('still ready');
    },
    60_000,
  );

/**
 * Faults in a cluster whose parts are hosts (network namespaces) on one
 * bridge: a gateway host cut off, a chat node's host killed mid-burst, NATS
 * nodes killed, latency and loss between hosts. After each, nothing the
 * server acknowledged is lost, nothing is stored twice, and every member's
 * app ends up showing every message once.
 */
describe('cluster faults across hosts', { skip: unavailable ?? false }, () => {
  let cluster: FaultCluster;
  let gw: string[];
  let owner: User;
  let converseId: string;
  const apps: MemberApp[] = [];
  /** Seqs of sends that needed a retry: their message may reach a socket twice (the app merges by id). */
  const retried = new Set<number>();

  const register = async (name: string): Promise<User> => {
    const r = await ok<{ token: string; user: { id: string } }>(gw[0]!, 'POST', '/api/auth/register', undefined, {
      username: name,
      password: 'fault password',
    });
    return { token: r.token, id: r.user.id, username: name };
  };

  /** Sends `count` messages from `senders` parallel senders, each retrying until acknowledged. */
  const burst = async (
    label: string,
    count: number,
    senders: number,
    during?: (n: number) => void,
    gateways: string[] = gw,
  ) => {
    const outcomes: SendOutcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: senders }, async (_, s) => {
        for (;;) {
          const n = next++;
          if (n >= count) return;
          during?.(n);

          const order = s % 2 === 0 ? gateways : [...gateways].reverse();
          const outcome = await sendUntilAcknowledged(order, owner.token, converseId, `${label} ${n}`, `${label}-${n}`);
          if (outcome.tries > 1) retried.add(outcome.message.seq);
          outcomes.push(outcome);
        }
      }),
    );
    return outcomes;
  };

  /** Nothing acknowledged lost, nothing stored twice, seqs without gaps, every app showing each message once. */
  const assertIntact = async (t: TestContext, acknowledged: SendOutcome[], { realtimeOnly = false } = {}) => {
    // A seq a dead node reserved but never wrote becomes a tombstone within CHAT_SEQ_REPAIR_SEC.
    let stored = await history(gw[1]!, owner.token, converseId);
    const gapless = (messages: Message[]) => messages.every((m, i) => m.seq === i + 1);
    await waitUntil(
      'seqs without gaps',
      async () => {
        if (gapless(stored)) return;
        stored = await history(gw[1]!, owner.token, converseId);
        if (!gapless(stored)) throw new Error('a gap');
      },
      60_000,
    ).catch(() => undefined);
    assert.deepEqual(
      stored.map((m) => m.seq),
      stored.map((_, i) => i + 1),
      'seqs run from 1 without gaps',
    );
    const tombstoned = stored.filter((m) => m.deleted).length;
    if (tombstoned > 0) t.diagnostic(`${tombstoned} seqs reserved by a dead node filled with tombstones`);
    const byClientId = new Map<string, Message[]>();
    for (const m of stored) {
      if (!m.clientMsgId) continue;
      byClientId.set(m.clientMsgId, [...(byClientId.get(m.clientMsgId) ?? []), m]);
    }
    for (const [id, copies] of byClientId) assert.equal(copies.length, 1, `${id} stored ${copies.length} times`);
    for (const o of acknowledged) {
      const kept = byClientId.get(o.message.clientMsgId!)?.[0];
      assert.ok(kept && !kept.deleted, `acknowledged ${o.message.clientMsgId} lost`);
      assert.equal(kept.id, o.message.id, `${o.message.clientMsgId} acknowledged as another message`);
    }
    const last = stored.at(-1)!.seq;
    // Tombstones of seqs nobody wrote are never pushed: what a member must see is every message kept.
    const kept = stored.filter((m) => !m.deleted).map((m) => m.seq);
    const unseen = (app: MemberApp) => kept.filter((seq) => !app.shown.has(seq));
    // Realtime first; where a fault cut an app's feed, the app's sync (as after a reconnect) fills the gap.
    let synced = 0;
    await Promise.all(
      apps.map(async (app) => {
        try {
          await until(`${app.user.username} shown up to ${last}`, () => unseen(app).length === 0, 30_000);
        } catch (err) {
          if (realtimeOnly) {
            const missing = unseen(app);
            throw new Error(`${app.user.username} on ${app.base} was not shown seqs ${missing.join(',')}`, {
              cause: err,
            });
          }
          synced += 1;
          await app.catchUp();
        }
        assert.deepEqual(unseen(app), [], `${app.user.username} does not show every message up to ${last}`);
        assert.deepEqual(
          app.repeats.filter((seq) => !retried.has(seq)),
          [],
          `${app.user.username} was pushed a message twice`,
        );
      }),
    );
    t.diagnostic(`${stored.length} messages stored, seqs 1..${last}, every app shows all (${synced} needed a sync)`);
  };

  before(async () => {
    cluster = await openFaultCluster('faults');
    gw = cluster.gateways.map((g) => g.base);
    owner = await register(`owner${process.pid}`);
    const group = await ok<Group>(gw[0]!, 'POST', '/api/groups', owner.token, { name: 'Faults' });
    converseId = group.panels[0]!.converseId;
    const { code } = await ok<Invite>(gw[0]!, 'POST', `/api/groups/${group.id}/invites`, owner.token, {});
    for (let i = 0; i < 4; i++) {
      const member = await register(`member${i}x${process.pid}`);
      await ok(gw[i % 2]!, 'POST', `/api/invites/${code}/accept`, member.token);
      const app = new MemberApp(member, converseId);
      await app.connect(gw[i % 2]!);
      apps.push(app);
    }
  });

  let failed = false;
  afterEach((t) => {
    if ((t as { error?: unknown }).error) failed = true;
  });
  after(async () => {
    // What the nodes said last, for a failure on CI.
    if (failed) for (const line of cluster?.lastLines() ?? []) console.log(line);
    for (const app of apps) app.close();
    await cluster?.close();
  });

  it('carries a message from one gateway to members on both', async (t) => {
    const outcomes = await burst('hello', 4, 2);
    await assertIntact(t, outcomes, { realtimeOnly: true });
  });

  it('a gateway host cut off for 20 s: its members move to the other gateway and catch up with sync', async (t) => {
    const gw1 = cluster.host('gw1');
    const stranded = apps.filter((a) => a.base === gw[0]);
    gw1.cut();
    const cutAt = Date.now();
    try {
      // The load balancer's health check has taken the silent gateway out: sends go to the other.
      const outcomes = await burst('cut', 20, 2, undefined, [gw[1]!]);
      // The user acts: the app's request on the silent gateway times out and it moves.
      const moves = await Promise.all(
        stranded.map(async (app) => {
          const result = await app.checkIn(gw[1]!);
          return { result, shownAfterMs: Date.now() - cutAt };
        }),
      );
      assert.ok(
        moves.every((m) => m.result === 'moved'),
        'a cut-off gateway answered',
      );
      t.diagnostic(`stranded apps moved and caught up ${moves.map((m) => m.shownAfterMs).join(', ')} ms after the cut`);
      await assertIntact(t, outcomes);
      // The fault lasts 20 s whatever the apps did meanwhile.
      await new Promise((r) => setTimeout(r, Math.max(0, 20_000 - (Date.now() - cutAt))));
    } finally {
      gw1.restore();
    }
    await waitReady(gw[0]!);
    t.diagnostic(`gateway ready again ${Date.now() - cutAt} ms after the cut`);
    // New connections spread over both gateways again.
    for (const app of stranded) await app.reconnect(gw[0]!);
    const outcomes = await burst('after-cut', 6, 2);
    await assertIntact(t, outcomes, { realtimeOnly: true });
  });

  it("a chat node's host killed mid-burst: retries with the same clientMsgId store each message once", async (t) => {
    const svc1 = cluster.host('svc1');
    let killedAt = 0;
    const outcomes = await burst('kill', 60, 4, (n) => {
      if (n !== 12) return;
      // A power cut: the link goes first, so no connection is closed cleanly.
      svc1.cut();
      svc1.kill();
      killedAt = Date.now();
    });
    const retried = outcomes.filter((o) => o.tries > 1);
    t.diagnostic(
      `${retried.length} of ${outcomes.length} sends needed retries; slowest acknowledged after ${Math.max(...outcomes.map((o) => o.ms))} ms`,
    );
    assert.ok(killedAt > 0);
    // A message the dead node stored but never announced reaches the apps with the retry that finds it.
    await assertIntact(t, outcomes, { realtimeOnly: true });
    svc1.restore();
    await cluster.startService(0);
    await Promise.all(gw.map((base) => waitReady(base)));
    await assertIntact(t, await burst('after-kill', 6, 2), { realtimeOnly: true });
  });

  it('one NATS server of three killed mid-burst, then all three killed and started again', async (t) => {
    const nats1 = cluster.host('nats1');
    const first = await burst('nats-one', 40, 4, (n) => {
      if (n === 10) nats1.kill();
    });
    t.diagnostic(
      `one NATS down: ${first.filter((o) => o.tries > 1).length} of ${first.length} sends retried, slowest ${Math.max(...first.map((o) => o.ms))} ms`,
    );
    await assertIntact(t, first, { realtimeOnly: true });
    await cluster.startNats(0);

    const resyncsBefore = apps.map((a) => a.resyncs);
    for (const n of ['nats1', 'nats2', 'nats3'] as const) cluster.host(n).kill();
    const downAt = Date.now();
    // Sends started during the outage are retried until NATS is back.
    const during = burst('nats-all', 8, 2);
    await Promise.all(gw.map((base) => waitNotReady(base)));
    const noticedAt = Date.now();
    await Promise.all([0, 1, 2].map((i) => cluster.startNats(i)));
    const backAt = Date.now();
    const outcomes = await during;
    await Promise.all(gw.map((base) => waitReady(base)));
    t.diagnostic(
      `NATS down and back: gateways not ready ${noticedAt - downAt} ms after the kill, NATS up again after ${backAt - downAt} ms; sends acknowledged ${Math.max(...outcomes.map((o) => o.ms))} ms after their first try, gateways ready ${Date.now() - backAt} ms after NATS was back`,
    );
    await assertIntact(t, outcomes);
    // Each gateway told its sockets that they may have missed events.
    await until('every app told to sync', () => apps.every((a, i) => a.resyncs > resyncsBefore[i]!), 30_000);
    // Realtime delivery resumes on the same sockets, without a sync.
    await assertIntact(t, await burst('after-nats', 6, 2), { realtimeOnly: true });
  });

  it("the Redis master's host killed mid-burst: Sentinel promotes the replica and nothing acknowledged is lost", async (t) => {
    const master = await cluster.redis.masterAddress();
    const name = FAULT_HOSTS.find((h) => master.startsWith(`${cluster.host(h).address}:`));
    assert.ok(name, `no host holds the master at ${master}`);
    const masterHost = cluster.host(name);
    let killedAt = 0;
    const outcomes = await burst('redis', 40, 4, (n) => {
      if (n !== 10) return;
      // Its sentinel goes with it: the other two still make the quorum.
      masterHost.cut();
      masterHost.kill();
      killedAt = Date.now();
    });
    const promoted = await cluster.redis.masterAddress();
    assert.notEqual(promoted, master, 'the sentinels still name the dead master');
    t.diagnostic(
      `${outcomes.filter((o) => o.tries > 1).length} of ${outcomes.length} sends retried, slowest ${Math.max(...outcomes.map((o) => o.ms))} ms; master moved to ${promoted}`,
    );
    assert.ok(killedAt > 0);
    await assertIntact(t, outcomes, { realtimeOnly: true });
    await Promise.all(gw.map((base) => waitReady(base)));
  });

  it('50 ms of latency and 1% packet loss between hosts: every broadcast complete', async (t) => {
    const hosts = FAULT_HOSTS.map((name) => cluster.host(name));
    /** Sends one at a time; reports send-to-shown on every app and acknowledgement times. */
    const timedSends = async (label: string, count: number) => {
      const sentAt = new Map<string, number>();
      const outcomes: SendOutcome[] = [];
      for (let n = 0; n < count; n++) {
        sentAt.set(`${label}-${n}`, Date.now());
        outcomes.push(await sendUntilAcknowledged(gw, owner.token, converseId, `${label} ${n}`, `${label}-${n}`));
      }
      await assertIntact(t, outcomes, { realtimeOnly: true });
      const shown = outcomes.flatMap((o) =>
        apps.map((app) => app.shownAt.get(o.message.seq)! - sentAt.get(o.message.clientMsgId!)!),
      );
      const acks = outcomes.map((o) => o.ms);
      t.diagnostic(
        `${label}: send to shown on every app p50 ${percentile(shown, 0.5)} ms, p99 ${percentile(shown, 0.99)} ms; acknowledgement p50 ${percentile(acks, 0.5)} ms, p99 ${percentile(acks, 0.99)} ms`,
      );
    };
    await timedSends('direct', 10);
    await cluster.toxi.setLatency(50);
    for (const h of hosts) h.dropPackets(1);
    try {
      await timedSends('slow', 25);
    } finally {
      await cluster.toxi.setLatency(0);
      for (const h of hosts) h.dropPackets(0);
    }
  });
});
