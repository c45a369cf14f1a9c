import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as MinioClient } from 'minio';
import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';
import { connect as natsConnect, StringCodec } from 'nats';
import { openTestEnv, type TestEnv } from '../src/index.ts';

describe('testkit servers answer for real', () => {
  let env: TestEnv;
  before(async () => {
    env = await openTestEnv(import.meta.url);
  });
  after(async () => {
    await env.close();
  });

  it('MongoDB wire server: writes and reads back a document in the file database', async () => {
    const conn: Connection = await mongoose.createConnection(env.mongoUrl).asPromise();
    try {
      assert.equal(conn.db?.databaseName, env.dbName);
      const coll = conn.collection('probe');
      await coll.insertOne({ _id: 'a' as never, n: 41 });
      await coll.updateOne({ _id: 'a' as never }, { $inc: { n: 1 } });
      const doc = await coll.findOne({ _id: 'a' as never });
      assert.equal(doc?.n, 42);
    } finally {
      await conn.close();
    }
  });

  it('Redis: SET then GET under the file prefix', async () => {
    const redis = new Redis(env.redisUrl, { keyPrefix: env.redisPrefix });
    try {
      await redis.set('k', 'v1');
      assert.equal(await redis.get('k'), 'v1');
      const raw = new Redis(env.redisUrl);
      assert.equal(await raw.get(`${env.redisPrefix}k`), 'v1');
      raw.disconnect();
    } finally {
      redis.disconnect();
    }
  });

  it('NATS: a published message reaches a subscriber', async () => {
    const nc = await natsConnect({ servers: env.natsUrl });
    try {
      const sc = StringCodec();
      const sub = nc.subscribe(`${env.namespace}.probe`, { max: 1 });
      nc.publish(`${env.namespace}.probe`, sc.encode('hello'));
      for await (const msg of sub) assert.equal(sc.decode(msg.data), 'hello');
    } finally {
      await nc.close();
    }
  });

  it('MinIO: puts and gets an object in the file bucket', async () => {
    const client = new MinioClient(env.minio);
    assert.equal(await client.bucketExists(env.minio.bucket), true);
    await client.putObject(env.minio.bucket, 'probe.txt', Buffer.from('bytes'));
    const stream = await client.getObject(env.minio.bucket, 'probe.txt');
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'bytes');
  });

  it('close() removes the file database, keys and bucket', async () => {
    const other = await openTestEnv(import.meta.url);
    const conn = await mongoose.createConnection(other.mongoUrl).asPromise();
    await conn.collection('x').insertOne({ a: 1 });
    const redis = new Redis(other.redisUrl);
    await redis.set(`${other.redisPrefix}x`, '1');
    await other.close();

    const dbs = await conn.db!.admin().listDatabases();
    assert.equal(
      dbs.databases.some((d) => d.name === other.dbName),
      false,
    );
    await conn.close();
    assert.equal(await redis.exists(`${other.redisPrefix}x`), 0);
    redis.disconnect();
    assert.equal(await new MinioClient(env.minio).bucketExists(other.minio.bucket), false);
  });
});
