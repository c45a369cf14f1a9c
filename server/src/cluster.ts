// `npm run cluster`: the cluster topology as plain processes on loopback.
// NATS and Redis (started here), MongoDB (MONGO_URL, else a local one), two
// gateway nodes on PORT and PORT+1, and the services split over two nodes.
// SIGINT/SIGTERM stops every process it started.
import { fileURLToPath } from 'node:url';
import { createLogger, type AppConfig } from '@im/sdk';
import {
  ManagedProcess,
  startNats,
  startRedis,
  waitUntil,
  type MongoServerHandle,
  type NatsServerHandle,
  type RedisServerHandle,
} from '@im/dev-servers';
import { LOCAL_DB_NAME, startLocalMongo } from './local-mongo.ts';
import { loadConfigOrDie, runUntilStopped } from './process-lifecycle.ts';

/** Which services each node runs. */
export const CLUSTER_NODES = [
  { id: 'gateway-1', services: 'gateway', portOffset: 0 },
  { id: 'gateway-2', services: 'gateway', portOffset: 1 },
  { id: 'services-1', services: 'user,group,chat' },
  { id: 'services-2', services: 'file,push,moderation,integration,mail' },
] as const;

const START = fileURLToPath(new URL('./start.ts', import.meta.url));

const config: AppConfig = loadConfigOrDie();
const logger = createLogger(config, { node: 'cluster' });

let nats: NatsServerHandle | undefined;
let redis: RedisServerHandle | undefined;
let mongo: MongoServerHandle | undefined;
const nodes = new Map<string, ManagedProcess>();
const restarts = new Map<string, number[]>();

/** Runs one node and, like an orchestrator would, restarts it when it dies (at most 5 times a minute). */
function supervise(id: string, env: NodeJS.ProcessEnv): void {
  const node = new ManagedProcess(id, process.execPath, [START], {
    env,
    onLine: (line) => process.stdout.write(`[${id}] ${line}\n`),
  });
  nodes.set(id, node);
  void node.exited.then((code) => {
    if (stopping) return;
    const now = Date.now();
    const recent = (restarts.get(id) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= 5) {
      void shutdown(1, `${id} keeps exiting (last code ${code})`);
      return;
    }
    restarts.set(id, [...recent, now]);
    logger.warn(`${id} exited with ${code}; restarting it`);
    setTimeout(() => {
      if (!stopping) supervise(id, env);
    }, 1000);
  });
}
let stopping = false;
const shutdown = runUntilStopped(
  async (why) => {
    stopping = true;
    logger.info(`stopping the cluster (${why})`);
    await Promise.allSettled([...nodes.values()].map((n) => n.stop(config.shutdownTimeoutMs)));
    await Promise.allSettled([nats?.stop(), redis?.stop(), mongo?.stop()]);
  },
  // Each node already gets the shutdown timeout; this bounds the whole.
  config.shutdownTimeoutMs * 2,
  () => logger.error('the cluster took too long to stop, exiting anyway'),
);

try {
  [nats, redis] = await Promise.all([
    config.transporter ? undefined : startNats(),
    config.redisUrl ? undefined : startRedis(),
  ]);
  const transporter = config.transporter ?? nats!.url;
  const redisUrl = config.redisUrl ?? redis!.url;
  let mongoUrl = config.mongoUrl;
  if (!mongoUrl) {
    mongo = await startLocalMongo(config, logger);
    mongoUrl = `${mongo.url}/${LOCAL_DB_NAME}`;
  }
  process.stdout.write(`NATS ${transporter}, Redis ${redisUrl}, MongoDB ${mongoUrl}\n`);

  for (const spec of CLUSTER_NODES) {
    const port = 'portOffset' in spec ? config.port + spec.portOffset : 0;
    const env = {
      ...process.env,
      NODE_ENV: config.nodeEnv,
      TRANSPORTER: transporter,
      REDIS_URL: redisUrl,
      MONGO_URL: mongoUrl,
      // Every node signs and checks tokens with the same key.
      SECRET: config.secret,
      SERVICES: spec.services,
      NODE_ID: spec.id,
      NAMESPACE: config.namespace,
      PORT: String(port),
      LOG_FORMAT: config.logFormat ?? (config.nodeEnv === 'development' ? 'pretty' : 'json'),
    };
    supervise(spec.id, env);
  }

  const gateways = CLUSTER_NODES.filter((n) => 'portOffset' in n).map(
    (n) => `http://${config.host}:${config.port + n.portOffset}`,
  );
  await Promise.all(
    gateways.map((base) =>
      waitUntil(
        `${base}/ready`,
        async () => {
          const res = await fetch(`${base}/ready`);
          if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
        },
        60_000,
      ),
    ),
  );
  // Printed whatever LOG_LEVEL says: it is the runner's answer to the operator.
  process.stdout.write(`cluster ready: ${gateways.join(' and ')} (Ctrl-C stops everything)\n`);
} catch (err) {
  process.stderr.write(`im-platform cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  await shutdown(1, 'start failed');
}
