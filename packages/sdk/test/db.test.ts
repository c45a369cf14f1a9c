import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { connectMongo, connectRedis, DependencyUnavailableError, pingMongo } from '../src/index.ts';

describe('connection helpers', () => {
  let env: TestEnv;
  before(async () => {
    env = await openTestEnv(import.meta.url);
  });
  after(() => env.close());

  it('connectMongo opens the named database and pings it', async () => {
    const conn = await connectMongo(env.mongoUrl.replace(`/${env.dbName}`, '/ignored'), {
      timeoutMs: 5000,
      dbName: env.dbName,
    });
    try {
      assert.equal(conn.db?.databaseName, env.dbName);
      await pingMongo(conn);
      await conn.collection('c').insertOne({ ok: 1 });
      assert.equal(await conn.collection('c').countDocuments(), 1);
    } finally {
      await conn.close();
    }
  });

  it('connectMongo fails within its timeout with a clear, password-free message', async () => {
    const port = await freePort();
    const started = Date.now();
    await assert.rejects(
      connectMongo(`mongodb://admin:hunter2@127.0.0.1:${port}/im`, { timeoutMs: 800 }),
      (err: unknown) => {
        assert.ok(err instanceof DependencyUnavailableError);
        assert.match(
          err.message,
          new RegExp(`^cannot reach MongoDB at mongodb://admin:\\*{6}@127\\.0\\.0\\.1:${port}/im within 800 ms`),
        );
        assert.ok(!err.message.includes('hunter2'));
        return true;
      },
    );
    assert.ok(Date.now() - started < 5000, 'gave up long after the timeout');
  });

  it('connectRedis applies the key prefix', async () => {
    const redis = await connectRedis(env.redisUrl, { timeoutMs: 2000, keyPrefix: env.redisPrefix });
    try {
      await redis.set('k', '1');
      // KEYS patterns are not prefixed, and other test files write to the same server at the same time.
      assert.deepEqual(await redis.keys(`${env.redisPrefix}*`), [`${env.redisPrefix}k`]);
    } finally {
      redis.disconnect();
    }
  });

  it('connectRedis fails within its timeout with a clear message', async () => {
    const port = await freePort();
    await assert.rejects(connectRedis(`redis://127.0.0.1:${port}`, { timeoutMs: 800 }), (err: unknown) => {
      assert.ok(err instanceof DependencyUnavailableError);
      assert.match(err.message, new RegExp(`^cannot reach Redis at redis://127\\.0\\.0\\.1:${port} within 800 ms`));
      return true;
    });
  });

  it('connectRedis through sentinels that do not answer fails within its timeout naming them', async () => {
    const port = await freePort();
    const sentinel = { sentinels: [{ host: '127.0.0.1', port }], name: 'mymaster' };
    await assert.rejects(connectRedis('redis://:secret@mymaster', { timeoutMs: 800, sentinel }), (err: unknown) => {
      assert.ok(err instanceof DependencyUnavailableError);
      assert.match(
        err.message,
        new RegExp(
          `^cannot reach Redis at master 'mymaster' through the sentinels 127\\.0\\.0\\.1:${port} within 800 ms`,
        ),
      );
      assert.ok(!err.message.includes('secret'));
      return true;
    });
  });
});
