import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ManagedProcess,
  startMongo,
  startNats,
  startServerProcess,
  waitUntil,
  startRedisSentinel,
  type MongoServerHandle,
  type NatsServerHandle,
  type RedisSentinelHandle,
  type ServerProcess,
} from '@im/dev-servers';
import { SERVICE_NAMES } from '@im/sdk';
import { openHostNetwork, startToxiproxy, type Host, type Toxiproxy } from '@im/testkit';
import { START } from '../spawn-node.ts';

const NATS_PORT = 4222;
const NATS_ROUTE_PORT = 6222;
const GATEWAY_PORT = 3000;
const NATS_HOSTS = ['nats1', 'nats2', 'nats3'] as const;
const GATEWAY_HOSTS = ['gw1', 'gw2'] as const;
const SERVICE_HOSTS = ['svc1', 'svc2'] as const;
const REDIS_HOSTS = ['redis1', 'redis2'] as const;
export const FAULT_HOSTS = [
  'mongo',
  ...REDIS_HOSTS,
  'sentinel',
  'toxi',
  ...NATS_HOSTS,
  ...GATEWAY_HOSTS,
  ...SERVICE_HOSTS,
] as const;
export type FaultHostName = (typeof FAULT_HOSTS)[number];

export interface ServiceNode {
  host: Host;
  process: ManagedProcess;
}

export interface GatewayNode {
  host: Host;
  base: string;
  process: ServerProcess;
}

/**
 * A cluster whose every part is its own host (network namespace) on one
 * bridge: MongoDB, Redis (a master and a replica with three sentinels), three
 * NATS servers routed to each other, two gateways and two nodes with every
 * other service. Nodes reach NATS and MongoDB through Toxiproxy on its own
 * host, so latency can be added between hosts; Redis directly, at the
 * address Sentinel names. The test process reaches the gateways over the
 * bridge.
 */
export interface FaultCluster {
  toxi: Toxiproxy;
  gateways: GatewayNode[];
  /** Redis as a master and a replica watched by three sentinels, each on a host of its own. */
  redis: RedisSentinelHandle;
  host(name: FaultHostName): Host;
  /** Starts NATS server `i` again (after a kill) with the same address and routes. */
  startNats(i: number): Promise<void>;
  /** The last lines every node printed, prefixed with its host. */
  lastLines(): string[];
  /** Starts a service node again on its host (after a kill). */
  startService(i: number): Promise<void>;
  close(): Promise<void>;
}

export async function openFaultCluster(tag: string): Promise<FaultCluster> {
  const net = openHostNetwork(tag, FAULT_HOSTS);
  const host = (name: FaultHostName) => net.host(name);
  const dataDir = mkdtempSync(join(tmpdir(), `im-${tag}-`));
  let mongo: MongoServerHandle | undefined;
  let redis: RedisSentinelHandle | undefined;
  let toxi: Toxiproxy | undefined;
  const nats: Array<NatsServerHandle | undefined> = [];
  const services: ServiceNode[] = [];
  const gateways: GatewayNode[] = [];

  const close = async () => {
    await Promise.allSettled(gateways.map((g) => g.process.stop()));
    await Promise.allSettled(services.map((s) => s.process.stop()));
    await Promise.allSettled([...nats.map((n) => n?.stop()), redis?.stop(), mongo?.stop(), toxi?.stop()]);
    net.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const natsRoutes = NATS_HOSTS.map((n) => `nats://${host(n).address}:${NATS_ROUTE_PORT}`);
  const startNatsAt = async (i: number) => {
    const h = host(NATS_HOSTS[i]!);
    nats[i] = await startNats({
      host: h.address,
      port: NATS_PORT,
      netns: h.netns,
      cluster: {
        name: `im-${tag}`,
        serverName: NATS_HOSTS[i]!,
        port: NATS_ROUTE_PORT,
        routes: natsRoutes.filter((_, j) => j !== i),
        // Clients keep to the addresses they were given (Toxiproxy's), not the servers' own.
        noAdvertise: true,
      },
    });
  };

  let nodeEnv: Record<string, string> = {};
  const startServiceAt = async (i: number) => {
    const h = host(SERVICE_HOSTS[i]!);
    let started = false;
    const proc = new ManagedProcess(SERVICE_HOSTS[i]!, process.execPath, [START], {
      netns: h.netns,
      env: {
        ...process.env,
        ...nodeEnv,
        SERVICES: SERVICE_NAMES.filter((s) => s !== 'gateway').join(','),
        NODE_ID: SERVICE_HOSTS[i]!,
        HOST: h.address,
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      onLine: (line) => {
        if (line.includes('"node started"')) started = true;
      },
    });
    services[i] = { host: h, process: proc };
    await waitUntil(
      `${SERVICE_HOSTS[i]} started`,
      async () => {
        if (!proc.running) throw new Error(`exited:\n${proc.output()}`);
        if (!started) throw new Error('not yet');
      },
      120_000,
    );
  };

  try {
    [mongo, redis, toxi] = await Promise.all([
      startMongo({ preferInMemory: true, host: host('mongo').address, port: 27017, netns: host('mongo').netns }),
      startRedisSentinel({
        hosts: {
          data: [host('redis1'), host('redis2')],
          sentinels: [host('redis1'), host('redis2'), host('sentinel')],
        },
      }),
      startToxiproxy(host('toxi')),
    ]);
    await Promise.all(NATS_HOSTS.map((_, i) => startNatsAt(i)));
    const natsProxies = await Promise.all(
      NATS_HOSTS.map((n, i) => toxi!.proxy(n, 14222 + i, `${host(n).address}:${NATS_PORT}`)),
    );
    const mongoProxy = await toxi.proxy('mongo', 17017, `${host('mongo').address}:27017`);
    nodeEnv = {
      NODE_ENV: 'test',
      LOG_FORMAT: 'json',
      RATE_LIMIT: 'off',
      VOICE: 'off',
      SECRET: 'f'.repeat(40),
      NAMESPACE: tag,
      // Seqs a killed chat node reserved and never wrote are filled within seconds, not 30.
      CHAT_SEQ_REPAIR_SEC: '3',
      DATA_DIR: dataDir,
      TRANSPORTER: natsProxies.map((a) => `nats://${a}`).join(','),
      // Through Sentinel, which hands out the master's own address: Redis is reached directly, not through Toxiproxy.
      REDIS_URL: `redis://${redis.name}`,
      REDIS_SENTINELS: redis.sentinelList,
      REDIS_SENTINEL_NAME: redis.name,
      MONGO_URL: `mongodb://${mongoProxy}/im-${tag}`,
    };
    await Promise.all(SERVICE_HOSTS.map((_, i) => startServiceAt(i)));
    await Promise.all(
      GATEWAY_HOSTS.map(async (name, i) => {
        const h = host(name);
        const proc = await startServerProcess(
          START,
          { ...nodeEnv, SERVICES: 'gateway', NODE_ID: name, PORT: String(GATEWAY_PORT), LOG_LEVEL: 'info' },
          { netns: h.netns, host: h.address, name },
        );
        gateways[i] = { host: h, base: proc.base, process: proc };
      }),
    );
  } catch (err) {
    await close();
    throw err;
  }

  return {
    toxi,
    gateways,
    redis: redis!,
    host,
    startNats: startNatsAt,
    startService: startServiceAt,
    lastLines: () =>
      [
        ...gateways.map((g) => [g.host.name, g.process.process] as const),
        ...services.map((s) => [s.host.name, s.process] as const),
      ].flatMap(([name, proc]) =>
        proc
          .output()
          .split('\n')
          .map((line) => `[${name}] ${line}`),
      ),
    close,
  };
}
