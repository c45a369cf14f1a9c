import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Group, Invite, Message } from '@im/protocol';
import { hostNetworkAvailable } from '@im/testkit';
import { until } from '../realtime/client.ts';
import { openFaultCluster, type FaultCluster } from './fault-cluster.ts';
import { history, MemberApp, ok, sendUntilAcknowledged, type SendOutcome, type User } from './fault-client.ts';

const unavailable = hostNetworkAvailable();

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
  let sent = 0;

  const register = async (name: string): Promise<User> => {
    const r = await ok<{ token: string; user: { id: string } }>(gw[0]!, 'POST', '/api/auth/register', undefined, {
      username: name,
      password: 'fault password',
    });
    return { token: r.token, id: r.user.id, username: name };
  };

  /** Sends `count` messages from `senders` parallel senders, each retrying until acknowledged. */
  const burst = async (label: string, count: number, senders: number, during?: (n: number) => void) => {
    const outcomes: SendOutcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: senders }, async (_, s) => {
        for (;;) {
          const n = next++;
          if (n >= count) return;
          during?.(n);
          sent += 1;
          const order = s % 2 === 0 ? gw : [...gw].reverse();
          outcomes.push(await sendUntilAcknowledged(order, owner.token, converseId, `${label} ${n}`, `${label}-${n}`));
        }
      }),
    );
    return outcomes;
  };

  /** Nothing acknowledged lost, nothing stored twice, seqs without gaps, every app showing each message once. */
  const assertIntact = async (t: TestContext, acknowledged: SendOutcome[]) => {
    const stored = await history(gw[1]!, owner.token, converseId);
    assert.deepEqual(
      stored.map((m) => m.seq),
      stored.map((_, i) => i + 1),
      'seqs run from 1 without gaps',
    );
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
    // Each app catches up by sync as the app does when it comes back to the foreground.
    await Promise.all(
      apps.map(async (app) => {
        await until(`${app.user.username} shown up to ${last}`, () => app.lastSeq >= last, 60_000).catch(() =>
          app.catchUp(),
        );
        assert.ok(app.lastSeq >= last, `${app.user.username} shows up to ${app.lastSeq} of ${last}`);
      }),
    );
    t.diagnostic(`${stored.length} messages stored, seqs 1..${last}, every app shows all`);
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

  after(async () => {
    for (const app of apps) app.close();
    await cluster?.close();
  });

  it('carries a message from one gateway to members on both', async (t) => {
    const outcomes = await burst('hello', 4, 2);
    await assertIntact(t, outcomes);
  });
});
