// A cluster of many gateways, as `npm run cluster` lays one out but grown one
// gateway at a time: NATS (with its monitoring endpoint, so a benchmark can
// read what the bus carried), Redis, the service nodes, and gateway nodes,
// each `server/src/start.ts` with its own SERVICES and NODE_ID. The database
// is the caller's, so fleets started one after the other share a dataset.
import { randomBytes } from 'node:crypto';
import {
  ManagedProcess,
  startNats,
  startRedis,
  startServerProcess,
  type NatsServerHandle,
  type RedisServerHandle,
  type ServerProcess,
} from '@im/dev-servers';
import { BENCH_ENV, runnerEntry, THIS_ROOT } from './target.ts';

/** The service nodes of the local cluster (server/src/cluster.ts): backends split over two processes. */
const SERVICE_NODES = [
  { id: 'services-1', services: 'user,group,chat' },
  { id: 'services-2', services: 'file,push,moderation,integration,mail,call,import' },
] as const;

/** Gateways started at once while growing: each loads the whole server, and this machine has few cores. */
const STARTING_AT_ONCE = 4;

export interface FleetOptions {
  /** MONGO_URL of every node. */
  mongoUrl: string;
  /** Extra configuration for every node (FANOUT_ROUTING, ...). */
  env?: Record<string, string>;
  /** The token key: fleets sharing a database share it, so accounts' tokens stay valid. */
  secret?: string;
}

export class GatewayFleet {
  readonly #nats: NatsServerHandle;
  readonly #redis: RedisServerHandle;
  readonly #env: Record<string, string>;
  readonly #services: ManagedProcess[] = [];
  readonly #gateways: ServerProcess[] = [];

  private constructor(nats: NatsServerHandle, redis: RedisServerHandle, env: Record<string, string>) {
    this.#nats = nats;
    this.#redis = redis;
    this.#env = env;
  }

  /** NATS, Redis and the service nodes; no gateway yet (`grow` adds them). */
  static async start(options: FleetOptions): Promise<GatewayFleet> {
    const [nats, redis] = await Promise.all([startNats({ monitor: true }), startRedis()]);
    const env: Record<string, string> = {
      ...BENCH_ENV,
      TRANSPORTER: nats.url,
      REDIS_URL: redis.url,
      MONGO_URL: options.mongoUrl,
      SECRET: options.secret ?? randomBytes(32).toString('base64url'),
      ...options.env,
    };
    const fleet = new GatewayFleet(nats, redis, env);
    for (const node of SERVICE_NODES) {
      fleet.#services.push(
        new ManagedProcess(node.id, process.execPath, [runnerEntry(THIS_ROOT, 'start.ts')], {
          env: {
            ...process.env,
            NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
            ...env,
            SERVICES: node.services,
            NODE_ID: node.id,
            PORT: '0',
          },
        }),
      );
    }
    return fleet;
  }

  /** Base URLs of the gateways started so far, in start order. */
  get gateways(): string[] {
    return this.#gateways.map((g) => g.base);
  }

  /** nats-server's HTTP monitoring endpoint. */
  get natsMonitor(): string {
    return this.#nats.monitorUrl!;
  }

  /** Starts gateways until there are `count`, each ready (it answers /ready once every backend is reachable). */
  async grow(count: number): Promise<void> {
    while (this.#gateways.length < count) {
      const batch = Math.min(STARTING_AT_ONCE, count - this.#gateways.length);
      const first = this.#gateways.length;
      const started = await Promise.allSettled(
        Array.from({ length: batch }, (_, i) =>
          startServerProcess(runnerEntry(THIS_ROOT, 'start.ts'), {
            ...this.#env,
            SERVICES: 'gateway',
            NODE_ID: `gateway-${first + i + 1}`,
          }),
        ),
      );
      for (const s of started) if (s.status === 'fulfilled') this.#gateways.push(s.value);
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw new Error(`a gateway did not start: ${String(failed.reason)}\n${this.#serviceOutput()}`);
    }
  }

  #serviceOutput(): string {
    return this.#services.map((s) => `[${s.name}${s.running ? '' : ', exited'}]\n${s.output()}`).join('\n');
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.#gateways.map((g) => g.stop()));
    await Promise.allSettled(this.#services.map((s) => s.stop(20_000)));
    await Promise.allSettled([this.#nats.stop(), this.#redis.stop()]);
  }
}
