import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ServiceBroker } from 'moleculer';
import { openTestEnv, type TestEnv } from '@im/testkit';
import { createBroker, createLogger, parseConfig, toHttpError } from '../src/index.ts';

const quiet = createLogger({ logLevel: 'warn', logFormat: 'json', nodeEnv: 'test' });

describe('single-instance broker', () => {
  let broker: ServiceBroker;
  before(async () => {
    broker = createBroker({ config: parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }), logger: quiet });
    broker.createService({
      name: 'math',
      actions: {
        add: {
          params: { a: 'number', b: 'number' },
          handler: (ctx) => (ctx.params as { a: number; b: number }).a + (ctx.params as { a: number; b: number }).b,
        },
      },
    });
    await broker.start();
  });
  after(() => broker.stop());

  it('has no transit at all', () => {
    assert.equal(broker.transit, undefined);
  });

  it('calls a local action without opening any socket', async () => {
    let sockets = 0;
    const onSocket = () => {
      sockets += 1;
    };
    diagnostics.subscribe('net.client.socket', onSocket);
    try {
      for (let i = 0; i < 200; i += 1) assert.equal(await broker.call('math.add', { a: i, b: 1 }), i + 1);
    } finally {
      diagnostics.unsubscribe('net.client.socket', onSocket);
    }
    assert.equal(sockets, 0);
    // The probe itself works: a real connection attempt is counted.
    let seen = 0;
    const probe = () => {
      seen += 1;
    };
    diagnostics.subscribe('net.client.socket', probe);
    await new Promise<void>((resolve) => {
      const socket = connect(9, '127.0.0.1');
      socket.on('error', () => resolve());
      socket.on('connect', () => {
        socket.destroy();
        resolve();
      });
    });
    diagnostics.unsubscribe('net.client.socket', probe);
    assert.ok(seen > 0, 'net.client.socket did not see a real connection');
  });

  it('validates parameters before the handler runs', async () => {
    await assert.rejects(
      broker.call('math.add', { a: 'one', b: 2 }),
      (err: unknown) => toHttpError(err).body.error.code === 'IM_ERR_VALIDATION',
    );
  });
});

describe('cluster brokers over real NATS, in two processes', () => {
  let env: TestEnv;
  let remote: ChildProcess;
  let broker: ServiceBroker;

  before(async () => {
    env = await openTestEnv(import.meta.url);
    remote = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/remote-node.ts', import.meta.url))], {
      env: { ...process.env, TRANSPORTER: env.natsUrl, NAMESPACE: env.namespace },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      remote.stdout!.once('data', () => resolve());
      remote.once('exit', (code) => reject(new Error(`remote node exited with ${code}`)));
    });
    broker = createBroker({
      config: parseConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        TRANSPORTER: env.natsUrl,
        NAMESPACE: env.namespace,
        NODE_ID: 'local',
      }),
      logger: quiet,
    });
    await broker.start();
    await broker.waitForServices(['remote'], 10_000);
  });

  after(async () => {
    await broker?.stop();
    remote?.kill('SIGTERM');
    await env?.close();
  });

  it('calls an action in the other process', async () => {
    const result = (await broker.call('remote.hello', { name: 'nats' })) as { greeting: string; pid: number };
    assert.equal(result.greeting, 'hello nats');
    assert.equal(result.pid, remote.pid);
    assert.notEqual(result.pid, process.pid);
  });

  it('carries catalog errors across the wire intact', async () => {
    await assert.rejects(broker.call('remote.fail'), (err: unknown) => {
      const mapped = toHttpError(err);
      return (
        mapped.status === 403 &&
        mapped.body.error.code === 'IM_ERR_FORBIDDEN' &&
        mapped.body.error.message === 'not for you'
      );
    });
  });

  it('validates remotely too', async () => {
    await assert.rejects(broker.call('remote.hello', { name: 42 }), (err: unknown) => toHttpError(err).status === 400);
  });

  it('delivers events both ways', async () => {
    const pong = new Promise<{ echo: unknown; pid: number }>((resolve) => {
      broker.createService({
        name: 'listener',
        events: { 'probe.pong': { handler: (ctx) => resolve(ctx.params as { echo: unknown; pid: number }) } },
      });
    });
    await broker.waitForServices(['listener']);
    // The remote node learns of the new listener over NATS: wait until it has.
    const deadline = Date.now() + 20_000;
    while (!(await broker.call('remote.hears', { event: 'probe.pong' }))) {
      assert.ok(Date.now() < deadline, 'the remote node learnt of the listener');
      await new Promise((r) => setTimeout(r, 20));
    }
    await broker.broadcast('probe.ping', { n: 1 });
    const got = await pong;
    assert.deepEqual(got.echo, { n: 1 });
    assert.equal(got.pid, remote.pid);
  });

  it('prefers a local instance of a service when the calling node has one', async () => {
    broker.createService({ name: 'remote', actions: { hello: () => ({ pid: process.pid }) } });
    const endpoints = () =>
      broker.registry.getActionEndpoints('remote.hello') as unknown as { hasLocal(): boolean; count(): number };
    while (!endpoints().hasLocal()) await new Promise((r) => setTimeout(r, 20));
    assert.equal(endpoints().count(), 2, 'both the local and the remote instance are registered');
    const pids = new Set<number>();
    for (let i = 0; i < 20; i += 1)
      pids.add(((await broker.call('remote.hello', { name: 'x' })) as { pid: number }).pid);
    assert.deepEqual([...pids], [process.pid]);
  });
});
