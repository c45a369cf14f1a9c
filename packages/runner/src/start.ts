// `npm start`: one node. With the defaults that is the whole platform in one
// process (every service plus the gateway, local calls only); SERVICES and
// TRANSPORTER make it one node of a cluster.
import {
  ConfigError,
  createLogger,
  DependencyUnavailableError,
  describeConfig,
  loadConfig,
  SERVICES_USING_MONGO,
  type AppConfig,
} from '@im/sdk';
import type { MongoServerHandle } from '@im/testkit';
import { startLocalMongo } from './local-mongo.ts';
import { startNode, type RunningNode } from './node.ts';

const DEFAULT_DB = 'im';

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  die(err);
}

const logger = createLogger(config, config.nodeId ? { node: config.nodeId } : {});
logger.info(`effective configuration:\n  ${describeConfig(config).join('\n  ')}`);

let localMongo: MongoServerHandle | undefined;
let node: RunningNode | undefined;
let stopping = false;

async function shutdown(code: number, why: string): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  logger.info(`stopping (${why})`);
  const force = setTimeout(() => {
    logger.error(`shutdown took longer than ${config.shutdownTimeoutMs} ms, exiting anyway`);
    process.exit(code || 1);
  }, config.shutdownTimeoutMs);
  force.unref();
  await node?.stop().catch((err: unknown) => logger.error({ err }, 'error while stopping the node'));
  await localMongo?.stop().catch(() => undefined);
  logger.flush();
  clearInterval(keepAlive);
  process.exit(code);
}

// Servers and children are unref'd by the test kit; this node lives until a signal.
const keepAlive = setInterval(() => undefined, 1 << 30);
process.once('SIGINT', () => void shutdown(0, 'SIGINT'));
process.once('SIGTERM', () => void shutdown(0, 'SIGTERM'));

try {
  if (!config.mongoUrl && config.services.some((s) => SERVICES_USING_MONGO.includes(s))) {
    localMongo = await startLocalMongo(config.dataDir, logger);
    config = { ...config, mongoUrl: `${localMongo.url}/${DEFAULT_DB}` };
  }
  node = await startNode(config, logger);
} catch (err) {
  await localMongo?.stop().catch(() => undefined);
  die(err);
}

/** One clear line on stderr, then exit 1: for bad config and unreachable dependencies. */
function die(err: unknown): never {
  const message =
    err instanceof ConfigError || err instanceof DependencyUnavailableError
      ? err.message
      : `failed to start: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`im-platform: ${message}\n`);
  process.exit(1);
}
