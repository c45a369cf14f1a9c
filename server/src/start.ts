// `npm start`: one node. With the defaults that is the whole platform in one
// process (every service plus the gateway, local calls only); SERVICES and
// TRANSPORTER make it one node of a cluster.
import { loadWsEngine } from '@im/gateway';
import { createLogger, describeConfig, SERVICES_USING_MONGO, type AppConfig } from '@im/sdk';
import type { MongoServerHandle } from '@im/dev-servers';
import { LOCAL_DB_NAME, startLocalMongo } from './local-mongo.ts';
import { startNode, type RunningNode } from './node.ts';
import { die, loadConfigOrDie, runUntilStopped } from './process-lifecycle.ts';

let config: AppConfig = loadConfigOrDie();

const logger = createLogger(config, config.nodeId ? { node: config.nodeId } : {});
logger.info(`effective configuration:\n  ${describeConfig(config).join('\n  ')}`);

// SOCKET_WS_ENGINE=uws where uWebSockets.js cannot load: one line and out, before anything starts.
if (config.services.includes('gateway')) await loadWsEngine(config.socketWsEngine).catch((err: unknown) => die(err));

let localMongo: MongoServerHandle | undefined;
let node: RunningNode | undefined;

runUntilStopped(
  async (why) => {
    logger.info(`stopping (${why})`);
    await node?.stop().catch((err: unknown) => logger.error({ err }, 'error while stopping the node'));
    await localMongo?.stop().catch(() => undefined);
    logger.flush();
  },
  config.shutdownTimeoutMs,
  () => logger.error(`shutdown took longer than ${config.shutdownTimeoutMs} ms, exiting anyway`),
);

try {
  if (!config.mongoUrl && config.services.some((s) => SERVICES_USING_MONGO.includes(s))) {
    localMongo = await startLocalMongo(config, logger);
    config = { ...config, mongoUrl: `${localMongo.url}/${LOCAL_DB_NAME}` };
  }
  node = await startNode(config, logger);
} catch (err) {
  await localMongo?.stop().catch(() => undefined);
  die(err);
}
