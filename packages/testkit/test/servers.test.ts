import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as MinioClient } from 'minio';
import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';
import { connect as natsConnect, StringCodec } from 'nats';
import { openTestEnv, startRedis, type TestEnv } from '../src/index.ts';

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

describe('managed processes', () => {
  it('stop() leaves no process behind', async () => {
    const redis = await startRedis();
    const pid = redis.process.pid!;
    assert.doesNotThrow(() => process.kill(-pid, 0), 'the server group is alive while running');
    await redis.stop();
    assert.throws(() => process.kill(-pid, 0), /ESRCH/, 'no member of the server group is left');
  });

  it('stop() awaited at top level outlives a process that ignores SIGTERM', async () => {
    const { execFile } = await import('node:child_process');
    // The stubborn process is killed after the grace time; the caller must still see stop() settle.
    const script = `
      import { ManagedProcess } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
      const p = new ManagedProcess('stubborn', process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up')"]);
      while (!p.output().includes('up')) await new Promise((r) => setTimeout(r, 20));
      await p.stop(300);
      console.log('stopped', p.running);
    `;
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 }, (err, out) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    assert.equal(code, 0);
    assert.equal(stdout.trim(), 'stopped false');
  });

  it('a server dies with its parent even when the parent is killed with SIGKILL', async () => {
    const { spawn } = await import('node:child_process');
    const script = `
      import { startRedis } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
      const r = await startRedis();
      console.log(String(r.process.pid));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', () => reject(new Error('child exited early')));
    });
    assert.doesNotThrow(() => process.kill(-pid, 0));
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        process.kill(-pid, 0);
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'redis-server was left running after its parent was killed');
  });
});
