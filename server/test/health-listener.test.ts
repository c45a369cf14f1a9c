import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { spawnNode, START, waitReady, type SpawnedNode } from './spawn-node.ts';

const HEALTH = /health and readiness on (http:\/\/[0-9.]+:\d+)/;

describe('a service node with HEALTH_PORT answers /health and /ready', () => {
  let env: TestEnv;
  let node: SpawnedNode;
  let base: string;

  before(async () => {
    env = await openTestEnv(import.meta.url);
    node = spawnNode(START, {
      SERVICES: 'user,group,chat',
      TRANSPORTER: env.natsUrl,
      NAMESPACE: env.namespace,
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
      MONGO_URL: env.mongoUrl,
      HOST: '127.0.0.1',
      HEALTH_PORT: '0',
    });
    base = await node.waitFor(HEALTH);
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await env?.close();
  });

  it('answers /health, and /ready once MongoDB, Redis and NATS answer, with the bare status', async () => {
    const health = await fetch(`${base}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    await waitReady(base);
    assert.deepEqual(await (await fetch(`${base}/ready`)).json(), { status: 'ready' });
  });

  it('answers anything else from the error catalog', async () => {
    const missing = await fetch(`${base}/api/users/me`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'IM_ERR_NOT_FOUND');
    const posted = await fetch(`${base}/ready`, { method: 'POST' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');
  });

  it('stops answering and exits 0 on SIGTERM', async () => {
    node.child.kill('SIGTERM');
    assert.equal(await node.exited, 0);
    await assert.rejects(fetch(`${base}/health`));
  });
});
