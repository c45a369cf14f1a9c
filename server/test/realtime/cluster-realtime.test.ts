import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Invite, Message } from '@im/protocol';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { CLUSTER, freePortPair, spawnNode, waitReady, type SpawnedNode } from '../spawn-node.ts';
import { connectClient, pause, record, sendOverSocket, sync, until, type ClientSocket } from './client.ts';

type User = { token: string; id: string; username: string };

/**
 * The local cluster as real processes: NATS, Redis, two gateways, two
 * service nodes. Clients on different gateways, a gateway killed with
 * SIGKILL, and presence cleaned up after it.
 */
describe('realtime across the local cluster', () => {
  let env: TestEnv;
  let cluster: SpawnedNode;
  let gw1: string;
  let gw2: string;
  const sockets: ClientSocket[] = [];
  let counter = 0;

  const http = async <T>(method: string, path: string, token?: string, body?: unknown): Promise<T> => {
    const res = await fetch(gw1 + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const user = async (): Promise<User> => {
    counter += 1;
    const username = `cl${process.pid}x${counter}`;
    const r = await http<{ token: string; user: { id: string } }>('POST', '/api/auth/register', undefined, {
      username,
      password: 'cluster password',
    });
    return { token: r.token, id: r.user.id, username };
  };
  const open = async (base: string, u: User) => {
    const s = await connectClient(base, u.token);
    sockets.push(s);
    return s;
  };
  const gatewayPid = (id: string) => {
    const pids = [...cluster.stdout().matchAll(new RegExp(`^\\[${id}\\] .*"pid":(\\d+)`, 'gm'))].map((m) =>
      Number(m[1]),
    );
    return pids.at(-1)!;
  };

  let owner: User;
  let a: User;
  let b: User;
  let converseId: string;

  before(async () => {
    env = await openTestEnv(import.meta.url);
    const port = await freePortPair();
    cluster = spawnNode(CLUSTER, {
      PORT: String(port),
      MONGO_URL: env.mongoUrl,
      RATE_LIMIT: 'off',
      SECRET: 'k'.repeat(40),
      ADMIN_USERNAMES: `cl${process.pid}x1`,
    });
    await cluster.waitFor(/cluster ready/, 90_000);
    gw1 = `http://127.0.0.1:${port}`;
    gw2 = `http://127.0.0.1:${port + 1}`;
    owner = await user();
    a = await user();
    b = await user();
    const group = await http<Group>('POST', '/api/groups', owner.token, { name: 'Cluster' });
    const { code } = await http<Invite>('POST', `/api/groups/${group.id}/invites`, owner.token, {});
    for (const u of [a, b]) await http('POST', `/api/invites/${code}/accept`, u.token);
    converseId = group.panels[0]!.converseId;
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    cluster?.child.kill('SIGTERM');
    await cluster?.exited;
    await env?.close();
  });

  it('two users on different gateways exchange messages both ways', async () => {
    const sa = await open(gw1, a);
    const sb = await open(gw2, b);
    const atA = record(sa, 'message:new');
    const atB = record(sb, 'message:new');
    const m1 = await sendOverSocket(sa, converseId, 'from gateway 1');
    const m2 = await sendOverSocket(sb, converseId, 'from gateway 2');
    await until('both at both', () => atA.length === 2 && atB.length === 2);
    await pause(200);
    assert.deepEqual(
      atA.map((m) => m.id),
      [m1.id, m2.id],
    );
    assert.deepEqual(
      atB.map((m) => m.id),
      [m1.id, m2.id],
    );
  });

  it('one user in two tabs on two nodes gets each message once per tab', async () => {
    const tab1 = await open(gw1, b);
    const tab2 = await open(gw2, b);
    const s1 = record(tab1, 'message:new');
    const s2 = record(tab2, 'message:new');
    const sender = await open(gw1, owner);
    for (let i = 0; i < 10; i += 1) await sendOverSocket(sender, converseId, `tabs ${i}`);
    await until('ten at each tab', () => s1.length === 10 && s2.length === 10);
    await pause(200);
    assert.equal(s1.length, 10);
    assert.equal(s2.length, 10);
  });

  it("a logout on one gateway closes that session's socket on the other, and only that session's", async () => {
    const u = await user();
    const login = await http<{ token: string }>('POST', '/api/auth/login', undefined, {
      username: u.username,
      password: 'cluster password',
    });
    const ended = await open(gw2, u); // the registration's session, on gateway 2
    const kept = await open(gw2, { ...u, token: login.token }); // another session, same gateway
    const closed = new Promise<string>((resolve) => ended.once('disconnect', (reason) => resolve(reason)));
    await http('POST', '/api/auth/logout', u.token); // through gateway 1
    assert.equal(await closed, 'io server disconnect');
    // Its token is refused on both gateways; the other session goes on.
    for (const base of [gw1, gw2])
      assert.equal(
        (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${u.token}` } })).status,
        401,
      );
    assert.equal(kept.connected, true);
    assert.equal(
      (await fetch(`${gw2}/api/users/me`, { headers: { authorization: `Bearer ${login.token}` } })).status,
      200,
    );
  });

  it("a server admin's deactivation on one gateway closes the user's sockets on both", async () => {
    const u = await user();
    const sockets = [await open(gw1, u), await open(gw2, u)];
    const closed = sockets.map((s) => new Promise<string>((resolve) => s.once('disconnect', resolve)));
    await http('POST', `/api/admin/users/${u.id}/deactivate`, owner.token); // owner is the first user: a server admin
    assert.deepEqual(await Promise.all(closed), ['io server disconnect', 'io server disconnect']);
    for (const base of [gw1, gw2])
      assert.equal(
        (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${u.token}` } })).status,
        401,
      );
  });

  it('after SIGKILL of a gateway, its clients reconnect to the other and sync every message sent meanwhile; presence goes offline', async () => {
    const watcher = await open(gw1, owner);
    const presence = record(watcher, 'presence');
    const onlyOnTwo = await user();
    const group = await http<Group[]>('GET', '/api/groups', owner.token);
    const { code } = await http<Invite>('POST', `/api/groups/${group[0]!.id}/invites`, owner.token, {});
    await http('POST', `/api/invites/${code}/accept`, onlyOnTwo.token);
    await open(gw2, onlyOnTwo);
    await until('online', () => presence.some((p) => p.userId === onlyOnTwo.id && p.online), 10_000);

    const victim = await open(gw2, b);
    const seen = record(victim, 'message:new');
    const writer = await open(gw1, a);
    const before = await sendOverSocket(writer, converseId, 'before the crash');
    await until('live message', () => seen.some((m) => m.id === before.id));
    const lastSeen = Math.max(...seen.map((m) => m.seq));

    const dropped = new Promise((resolve) => victim.once('disconnect', resolve));
    process.kill(gatewayPid('gateway-2'), 'SIGKILL');
    await dropped;
    const meanwhile: Message[] = [];
    for (let i = 0; i < 20; i += 1) meanwhile.push(await sendOverSocket(writer, converseId, `while down ${i}`));

    const back = await open(gw1, b);
    const result = await sync(back, { [converseId]: lastSeen });
    assert.deepEqual(
      result.converses[converseId]!.messages.map((m) => m.id),
      meanwhile.map((m) => m.id),
    );

    await until(
      'offline after the node died',
      () => presence.some((p) => p.userId === onlyOnTwo.id && !p.online),
      40_000,
    );
    // The supervisor brings the gateway back.
    await waitReady(gw2, 60_000);
  });
});
