import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redisCommand, startRedisSentinel, waitUntil } from '../src/index.ts';

describe('Redis Sentinel dev servers', () => {
  it('start a master, a replica and three sentinels that promote the replica when the master is killed', async () => {
    const set = await startRedisSentinel();
    try {
      const [master, replica] = set.servers;
      assert.equal(await set.masterPort(), master!.port);
      assert.equal(set.sentinelPorts.length, 3);
      assert.match(set.sentinelList, /^127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
      await redisCommand(master!.port, ['SET', 'before', 'failover']);
      await redisCommand(master!.port, ['WAIT', '1', '5000']);

      assert.equal(await set.killMaster(), master!.port);
      await waitUntil(
        'every sentinel to name the replica',
        async () => {
          for (const port of set.sentinelPorts) {
            const reply = await redisCommand(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', set.name]);
            assert.ok(Array.isArray(reply) && Number(reply[1]) === replica!.port, `sentinel ${port}: ${String(reply)}`);
          }
        },
        60_000,
      );
      const role = await redisCommand(replica!.port, ['ROLE']);
      assert.ok(Array.isArray(role) && role[0] === 'master');
      // What the old master had replicated survives it; the new master takes writes.
      assert.equal(await redisCommand(replica!.port, ['GET', 'before']), 'failover');
      assert.equal(await redisCommand(replica!.port, ['SET', 'after', 'failover']), 'OK');
    } finally {
      await set.stop();
    }
  });
});
