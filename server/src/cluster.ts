// `npm run cluster [-- --gateways N]`: the cluster topology as plain
// processes on loopback. NATS and Redis (started here), MongoDB (MONGO_URL,
// else a local one), N gateway nodes (default 2) on PORT .. PORT+N-1, and the
// services split over two nodes. SIGINT/SIGTERM stops every process it started.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger, type AppConfig } from '@im/sdk';
import {
  ManagedProcess,
  startNats,
  startRedis,
  waitUntil,
  type LiveKitServerHandle,
  type MongoServerHandle,
  type NatsServerHandle,
  type RedisServerHandle,
} from '@im/dev-servers';
import { liveKitSettings, startLocalLiveKit } from './local-livekit.ts';
import { LOCAL_DB_NAME, startLocalMongo } from './local-mongo.ts';
import { loadConfigOrDie, runUntilStopped } from './process-lifecycle.ts';

/** Which services each node runs: `gateways` gateway nodes, then the services split over two nodes. */
export function clusterNodes(gateways: number): Array<{ id: string; services: string; portOffset?: number }> {
  return [
    ...Array.from({ length: gateways }, (_, i) => ({ id: `gateway-${i + 1}`, services: 'gateway', portOffset: i })),
    { id: 'services-1', services: 'user,group,chat' },
    { id: 'services-2', services: 'file,push,moderation,integration,mail,call,import' },
  ];
}

/** `--gateways N` (1 to 64; default 2). */
function gatewaysAsked(): number {
  let asked = '';
  try {
    asked = parseArgs({ options: { gateways: { type: 'string', default: '2' } } }).values.gateways;
  } catch (err) {
    process.stderr.write(`im-platform cluster: ${(err as Error).message} (usage: npm run cluster -- [--gateways N])\n`);
    process.exit(1);
  }
  const count = Number(asked);
  if (!/^\d+$/.test(asked) || count < 1 || count > 64) {
    process.stderr.write(`im-platform cluster: --gateways must be a whole number from 1 to 64, not '${asked}'\n`);
    process.exit(1);
  }
  return count;
}

const START = fileURLToPath(new URL('./start.ts', import.meta.url));

const CLUSTER_NODES = clusterNodes(gatewaysAsked());
const config: AppConfig = loadConfigOrDie();
const logger = createLogger(config, { node: 'cluster' });

let nats: NatsServerHandle | undefined;
let redis: RedisServerHandle | undefined;
let mongo: MongoServerHandle | undefined;
let livekit: LiveKitServerHandle | undefined;
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
    await Promise.allSettled([nats?.stop(), redis?.stop(), mongo?.stop(), livekit?.stop()]);
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
  // One LiveKit for the cluster (unless LIVEKIT_URL names one), its webhooks to the first gateway.
  livekit = await startLocalLiveKit(config, `http://127.0.0.1:${config.port}/api/livekit/webhook`, logger);
  const calls = livekit ? liveKitSettings(livekit) : {};

  for (const spec of CLUSTER_NODES) {
    const port = spec.portOffset === undefined ? 0 : config.port + spec.portOffset;
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
      ...(calls.livekitUrl
        ? {
            LIVEKIT_URL: calls.livekitUrl,
            LIVEKIT_API_KEY: calls.livekitApiKey,
            LIVEKIT_API_SECRET: calls.livekitApiSecret,
          }
        : {}),
    };
    supervise(spec.id, env);
  }

  const gateways = CLUSTER_NODES.flatMap((n) =>
    n.portOffset === undefined ? [] : [`http://${config.host}:${config.port + n.portOffset}`],
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
  process.stdout.write(`cluster ready: ${gateways.join(', ')} (Ctrl-C stops everything)\n`);
} catch (err) {
  process.stderr.write(`im-platform cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  await shutdown(1, 'start failed');
}
