import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { MemoryPresence, RedisPresence } from '../src/realtime/presence.ts';

describe('presence', () => {
  it('in memory: online with the first socket, offline with the last', async () => {
    const p = new MemoryPresence();
    assert.equal(await p.connected('u1'), true);
    assert.equal(await p.connected('u1'), false);
    assert.deepEqual([...(await p.online(['u1', 'u2']))], ['u1']);
    assert.equal(await p.disconnected('u1'), false);
    assert.equal(await p.disconnected('u1'), true);
    assert.deepEqual([...(await p.online(['u1']))], []);
  });

  it('in memory: away when no socket of the user is active, back with one', async () => {
    const p = new MemoryPresence();
    await p.connected('u1');
    await p.active('u1');
    await p.connected('u1');
    await p.active('u1');
    assert.equal(await p.idle('u1'), false, 'one tab idle, the other active');
    assert.deepEqual([...(await p.away(['u1']))], []);
    assert.equal(await p.idle('u1'), true, 'both idle');
    assert.deepEqual([...(await p.away(['u1', 'u2']))], ['u1'], 'only online users are away');
    assert.equal(await p.active('u1'), true, 'back');
    assert.deepEqual([...(await p.away(['u1']))], []);
  });

  describe('in Redis, across nodes', () => {
    let env: TestEnv;
    const clients: Redis[] = [];
    const client = () => {
      const r = new Redis(env.redisUrl, { keyPrefix: env.redisPrefix });
      clients.push(r);
      return r;
    };
    before(async () => {
      env = await openTestEnv(import.meta.url);
    });
    after(async () => {
      for (const c of clients) c.disconnect();
      await env.close();
    });

    it('counts tabs on several nodes: offline only when the last socket anywhere goes', async () => {
      const x = new RedisPresence(client(), 'node-x');
      const y = new RedisPresence(client(), 'node-y');
      assert.equal(await x.connected('u1'), true);
      assert.equal(await y.connected('u1'), false);
      assert.equal(await x.connected('u1'), false);
      assert.equal(await x.disconnected('u1'), false);
      assert.equal(await x.disconnected('u1'), false);
      assert.deepEqual([...(await y.online(['u1', 'u9']))], ['u1']);
      assert.equal(await y.disconnected('u1'), true);
      assert.deepEqual([...(await x.online(['u1']))], []);
    });

    it("is away only when the user's sockets on every node are idle", async () => {
      const x = new RedisPresence(client(), 'node-ax');
      const y = new RedisPresence(client(), 'node-ay');
      await x.connected('a1');
      assert.equal(await x.active('a1'), true);
      await y.connected('a1');
      assert.equal(await y.active('a1'), false);
      assert.equal(await x.idle('a1'), false, 'the tab on the other node is active');
      assert.deepEqual([...(await y.away(['a1']))], []);
      assert.equal(await y.idle('a1'), true);
      assert.deepEqual([...(await x.away(['a1', 'a9']))], ['a1']);
      assert.equal(await x.active('a1'), true);
      assert.deepEqual([...(await y.away(['a1']))], []);
    });

    it('a node that dies without cleaning up has its users swept offline by another node', async () => {
      const dying = new RedisPresence(client(), 'node-dead');
      const survivor = new RedisPresence(client(), 'node-alive');
      const offline: string[] = [];
      await dying.start(() => undefined);
      await survivor.start((ids) => offline.push(...ids));
      await dying.connected('ghost');
      await dying.connected('ghost');
      await survivor.connected('both');
      await dying.connected('both');
      // Death: the heartbeat stops and its key goes (as after the TTL).
      await dying.stop();
      const deadline = Date.now() + 15_000;
      while (!offline.includes('ghost') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await survivor.stop();
      assert.deepEqual(offline, ['ghost'], 'only users with no socket left anywhere go offline');
      assert.deepEqual([...(await survivor.online(['ghost', 'both']))], ['both']);
    });
  });
});
