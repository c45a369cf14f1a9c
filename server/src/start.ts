// `npm start`: one node. With the defaults that is the whole platform in one
// process (every service plus the gateway, local calls only); SERVICES and
// TRANSPORTER make it one node of a cluster.
import { loadWsEngine } from '@im/gateway';
import { createLogger, describeConfig, SERVICES_USING_MONGO, type AppConfig } from '@im/sdk';
import { freePort, type LiveKitServerHandle, type MongoServerHandle } from '@im/dev-servers';
import { startHealthListener, type HealthListener } from './health-listener.ts';
import { liveKitSettings, startLocalLiveKit } from './local-livekit.ts';
import { LOCAL_DB_NAME, startLocalMongo } from './local-mongo.ts';
import { startNode, type RunningNode } from './node.ts';
import { die, loadConfigOrDie, runUntilStopped } from './process-lifecycle.ts';

let config: AppConfig = loadConfigOrDie();

const logger = createLogger(config, config.nodeId ? { node: config.nodeId } : {});
logger.info(`effective configuration:\n  ${describeConfig(config).join('\n  ')}`);

// SOCKET_WS_ENGINE=uws where uWebSockets.js cannot load: one line and out, before anything starts.
if (config.services.includes('gateway')) await loadWsEngine(config.socketWsEngine).catch((err: unknown) => die(err));

let localMongo: MongoServerHandle | undefined;
let localLiveKit: LiveKitServerHandle | undefined;
let node: RunningNode | undefined;
let health: HealthListener | undefined;

runUntilStopped(
  async (why) => {
    logger.info(`stopping (${why})`);
    health?.drain();
    await node?.stop().catch((err: unknown) => logger.error({ err }, 'error while stopping the node'));
    await health?.close();
    await localMongo?.stop().catch(() => undefined);
    await localLiveKit?.stop().catch(() => undefined);
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
  // A single instance with calls on and no LIVEKIT_URL starts its own LiveKit, its webhooks to this gateway.
  if (!config.transporter && config.services.includes('call') && config.services.includes('gateway')) {
    const gatewayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    // LiveKit must know where to post its webhooks before the gateway listens.
    if (config.port === 0) config = { ...config, port: await freePort(gatewayHost) };
    localLiveKit = await startLocalLiveKit(config, `http://${gatewayHost}:${config.port}/api/livekit/webhook`, logger);
    if (localLiveKit) config = { ...config, ...liveKitSettings(localLiveKit) };
  }
  node = await startNode(config, logger);
  // Gateways answer the probes on PORT; a node without one answers them on HEALTH_PORT when it is set.
  if (config.healthPort !== undefined && !config.services.includes('gateway')) {
    health = await startHealthListener(node.app.readiness, config.host, config.healthPort);
    logger.info(`health and readiness on ${health.url} (/health, /ready)`);
  }
} catch (err) {
  await node?.stop().catch(() => undefined);
  await localMongo?.stop().catch(() => undefined);
  await localLiveKit?.stop().catch(() => undefined);
  die(err);
}
