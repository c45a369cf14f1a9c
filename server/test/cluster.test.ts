import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { alive, CLUSTER, freePortRun, spawnNode, type SpawnedNode } from './spawn-node.ts';

describe('npm run cluster -- --gateways 3: three gateways and two service nodes over NATS', () => {
  let env: TestEnv;
  let cluster: SpawnedNode;
  let port: number;

  before(async () => {
    env = await openTestEnv(import.meta.url);
    port = await freePortRun(3);
    cluster = spawnNode(
      CLUSTER,
      {
        PORT: String(port),
        MONGO_URL: env.mongoUrl,
        NODE_ENV: 'development',
        SECRET: 'c'.repeat(40),
      },
      ['--gateways', '3'],
    );
    await cluster.waitFor(/cluster ready/, 90_000);
  });
  after(async () => {
    cluster?.child.kill('SIGKILL');
    await env?.close();
  });

  it('every gateway answers /ready with NATS, Redis and every backend service discovered', async () => {
    for (const p of [port, port + 1, port + 2]) {
      const res = await fetch(`http://127.0.0.1:${p}/ready`);
      assert.equal(res.status, 200, `gateway on ${p}`);
      assert.deepEqual(await res.json(), {
        status: 'ready',
        checks: { redis: 'ok', storage: 'ok', nats: 'ok', services: 'ok' },
      });
    }
  });

  it("each gateway's /metrics counts the room events it received and the rooms it is subscribed to", async () => {
    for (const p of [port, port + 1, port + 2]) {
      const text = await (await fetch(`http://127.0.0.1:${p}/metrics`)).text();
      assert.match(text, /^im_gateway_room_events_received_total \d+$/m, `gateway on ${p}`);
      assert.match(text, /^im_gateway_room_subscriptions \d+$/m, `gateway on ${p}`);
    }
  });

  it('runs each node as its own process with the services it was given', () => {
    const out = cluster.stdout();
    for (const [node, services] of [
      ['gateway-1', '"gateway"'],
      ['gateway-3', '"gateway"'],
      ['services-1', '"user","group","chat"'],
      ['services-2', '"file","push","moderation","integration","mail","call","import"'],
    ] as const) {
      const line = out.split('\n').find((l) => l.startsWith(`[${node}]`) && l.includes('"node started"'));
      assert.ok(line, `${node} did not start`);
      assert.ok(line.includes(`"services":[${services}]`), line);
    }
  });

  it('stops every process it started on SIGTERM', async () => {
    const pids = [...cluster.stdout().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]));
    const nodePids = [...new Set(pids)].filter((pid) => pid !== cluster.child.pid);
    assert.ok(nodePids.length >= 5, `expected 5 node processes, saw ${nodePids.length}`);
    cluster.child.kill('SIGTERM');
    assert.equal(await cluster.exited, 0);
    for (const pid of nodePids) assert.equal(alive(pid), false, `node process ${pid} left running`);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`));
    await assert.rejects(fetch(`http://127.0.0.1:${port + 1}/health`));
    await assert.rejects(fetch(`http://127.0.0.1:${port + 2}/health`));
    // The NATS and Redis servers it started are gone too.
    const started = /NATS nats:\/\/127\.0\.0\.1:(\d+), Redis redis:\/\/127\.0\.0\.1:(\d+)/.exec(cluster.stdout());
    assert.ok(started, 'cluster did not log its NATS and Redis addresses');
    for (const p of [Number(started[1]), Number(started[2])]) {
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect(p, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
      assert.ok(refused, `port ${p} still answers after the cluster stopped`);
    }
  });
});

describe('npm run cluster -- --gateways with a bad count', () => {
  it('refuses it with one line before starting anything', async () => {
    const refused = spawnNode(CLUSTER, {}, ['--gateways', '0']);
    assert.equal(await refused.exited, 1);
    assert.match(refused.stderr(), /--gateways must be a whole number from 1 to 64, not '0'/);
  });
});
