import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedis } from '@im/dev-servers';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { alive, spawnNode, START, waitReady, type SpawnedNode } from './spawn-node.ts';

const LISTENING = /gateway listening on (http:\/\/[0-9.]+:\d+)/;

describe('npm start: the single instance', () => {
  let env: TestEnv;
  let node: SpawnedNode;
  let base: string;

  before(async () => {
    env = await openTestEnv(import.meta.url);
    node = spawnNode(START, { PORT: '0', MONGO_URL: env.mongoUrl });
    base = await node.waitFor(LISTENING);
    await waitReady(base);
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await env?.close();
  });

  it('serves /health', async () => {
    const res = await fetch(`${base}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  it('serves /ready with MongoDB, file storage and every service checked', async () => {
    const res = await fetch(`${base}/ready`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ready', checks: { mongo: 'ok', storage: 'ok', services: 'ok' } });
  });

  it('serves Prometheus metrics, counting requests', async () => {
    await fetch(`${base}/health`);
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^im_process_resident_memory_bytes \d+/m);
    assert.match(text, /^im_http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]/m);
  });

  it('answers unknown routes with a catalog 404', async () => {
    const res = await fetch(`${base}/api/nope`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: { code: 'IM_ERR_ROUTE_NOT_FOUND', message: 'No such route' } });
  });

  it('prints the effective config with the secret masked', () => {
    const out = node.stdout();
    assert.match(out, /SERVICES=gateway,user,group,chat,file,push/);
    assert.match(out, /SECRET=\*{6}/);
  });

  it('stops cleanly on SIGTERM', async () => {
    node.child.kill('SIGTERM');
    assert.equal(await node.exited, 0);
    assert.match(node.stdout(), /stopping \(SIGTERM\)/);
  });
});

describe('npm start without MONGO_URL, DEV_DATABASE=memory', () => {
  it('starts the in-memory dev server with a loud warning, and stops it on exit', async () => {
    const node = spawnNode(START, { PORT: '0', DEV_DATABASE: 'memory' });
    try {
      const base = await node.waitFor(LISTENING);
      assert.match(node.stdout(), /IN-MEMORY dev server/);
      assert.match(node.stdout(), /ALL DATA IS LOST/);
      await waitReady(base);
      const mongoPort = Number(await node.waitFor(/mongo-java-server at mongodb:\/\/127\.0\.0\.1:(\d+)/));
      assert.ok(mongoPort > 0);
      node.child.kill('SIGINT');
      assert.equal(await node.exited, 0);
      // The dev server's port no longer answers.
      await assert.rejects(fetch(`http://127.0.0.1:${mongoPort}/`));
    } finally {
      node.child.kill('SIGKILL');
    }
  });
});

describe('/ready reports a failed dependency', () => {
  it('answers 503 naming Redis when it goes away, while /health stays 200', async () => {
    const env = await openTestEnv(import.meta.url);
    const redis = await startRedis();
    const node = spawnNode(START, { PORT: '0', MONGO_URL: env.mongoUrl, REDIS_URL: redis.url });
    try {
      const base = await node.waitFor(LISTENING);
      await waitReady(base);
      await redis.stop();
      const res = await fetch(`${base}/ready`);
      assert.equal(res.status, 503);
      const body = (await res.json()) as { status: string; failed: string[] };
      assert.equal(body.status, 'unavailable');
      assert.deepEqual(body.failed, ['redis']);
      // Liveness is separate from readiness.
      assert.equal((await fetch(`${base}/health`)).status, 200);
    } finally {
      node.child.kill('SIGKILL');
      await redis.stop();
      await env.close();
    }
  });
});

describe('bad configuration exits non-zero with one clear line', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'unknown TRANSPORTER scheme',
      { TRANSPORTER: 'amqp://127.0.0.1' },
      /^im-platform: configuration error: TRANSPORTER must start with nats:\/\//,
    ],
    [
      'missing SECRET in production',
      { NODE_ENV: 'production', MONGO_URL: 'mongodb://127.0.0.1:1/im' },
      /^im-platform: configuration error: SECRET is required when NODE_ENV=production/,
    ],
    [
      'unreachable MONGO_URL',
      { MONGO_URL: 'mongodb://127.0.0.1:1/im', MONGO_CONNECT_TIMEOUT_MS: '1500' },
      /^im-platform: cannot reach MongoDB at mongodb:\/\/127\.0\.0\.1:1\/im within 1500 ms/,
    ],
    ['a PORT that is not a port', { PORT: 'http' }, /^im-platform: configuration error: PORT /],
    [
      'a REDIS_SENTINELS list with a bad entry',
      { REDIS_URL: 'redis://mymaster', REDIS_SENTINELS: '127.0.0.1:26379,127.0.0.1:port' },
      /^im-platform: configuration error: REDIS_SENTINELS must be a comma list of host:port: '127\.0\.0\.1:port' is not host:port/,
    ],
    [
      // uWebSockets.js is not a dependency: it is missing, or (on glibc < 2.38) could not load if it were there.
      'SOCKET_WS_ENGINE=uws where uWebSockets.js cannot load',
      { SOCKET_WS_ENGINE: 'uws' },
      /^im-platform: configuration error: SOCKET_WS_ENGINE is uws, but uWebSockets\.js (needs glibc|could not be loaded)/,
    ],
  ];
  for (const [name, env, expected] of cases) {
    it(name, async () => {
      const node = spawnNode(START, env);
      const code = await node.exited;
      assert.equal(code, 1);
      const lines = node.stderr().trim().split('\n');
      assert.equal(lines.length, 1, `expected one line, got:\n${node.stderr()}`);
      assert.match(lines[0]!, expected);
      assert.ok(!alive(node.child.pid!));
    });
  }
});
