import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { BrokerOptions, ServiceBroker } from 'moleculer';
import type { Connection } from 'mongoose';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import {
  closeRedis,
  connectMongo,
  connectRedis,
  createStorage,
  createBroker,
  pingMongo,
  RateLimits,
  redisSentinelSettings,
  Readiness,
  RoomRouter,
  routeEventsByRoom,
  SERVICES_USING_MONGO,
  startTracing,
  type AppConfig,
  type AppContext,
  type Logger,
  type ObjectStorage,
  type Tracing,
} from '@im/sdk';
import { SERVICE_FACTORIES } from './service-registry.ts';

export interface RunningNode {
  app: AppContext;
  broker: ServiceBroker;
  /** Stops the broker (services drain), then closes database connections. */
  stop(): Promise<void>;
}

/**
 * Starts one node: connects what its services need, makes the broker, loads
 * the services SERVICES names, and starts them. A dependency that cannot be
 * reached fails the start with a clear error and leaves nothing open.
 */
export async function startNode(
  config: AppConfig,
  logger: Logger,
  /** Extra broker options (tests add middlewares with it). */
  brokerOverrides?: Partial<BrokerOptions>,
): Promise<RunningNode> {
  const readiness = new Readiness();
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics, prefix: 'im_' });
  // Not among the defaults: Buffers and typed arrays (socket and upload buffers) outside the V8 heap.
  new Gauge({
    name: 'im_nodejs_array_buffers_bytes',
    help: 'Memory of ArrayBuffers and Buffers (part of external memory), from process.memoryUsage().',
    registers: [metrics],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });

  let mongo: Connection | undefined;
  let redis: Redis | undefined;
  let broker: ServiceBroker | undefined;
  let roomRouter: RoomRouter | undefined;
  let tracing: Tracing | undefined;
  const closeClients = async () => {
    await Promise.allSettled([mongo?.close(), redis && closeRedis(redis), roomRouter?.close()]);
    // Last: the spans of the draining work go out before the node is gone.
    await tracing?.shutdown().catch(() => undefined);
  };

  try {
    // OTEL_EXPORTER_OTLP_ENDPOINT unset: undefined, and no OpenTelemetry module is loaded.
    tracing = await startTracing(config, config.nodeId ?? `${hostname()}-${process.pid}`, logger);
    if (config.services.some((name) => SERVICES_USING_MONGO.includes(name))) {
      if (!config.mongoUrl) throw new Error('MONGO_URL is not set and no local MongoDB was started');
      mongo = await connectMongo(config.mongoUrl, {
        timeoutMs: config.mongoConnectTimeoutMs,
        ...(tracing ? { monitorCommands: true } : {}),
      });
      tracing?.traceMongo(mongo);
      const connection = mongo;
      readiness.add('mongo', () => pingMongo(connection));
    }
    if (config.redisUrl) {
      const sentinel = redisSentinelSettings(config);
      redis = await connectRedis(config.redisUrl, {
        timeoutMs: config.mongoConnectTimeoutMs,
        keyPrefix: config.redisKeyPrefix,
        ...(sentinel ? { sentinel } : {}),
      });
      tracing?.traceRedis(redis);
      const client = redis;
      readiness.add('redis', async () => {
        await client.ping();
      });
    }

    let storage: ObjectStorage | undefined;
    if (config.services.some((name) => name === 'gateway' || name === 'file' || name === 'import')) {
      storage = await createStorage(config);
      const store = storage;
      readiness.add('storage', () => store.ping());
    }

    // Realtime events by room (FANOUT_ROUTING=rooms): a NATS connection of the node's own beside the transporter's.
    if (config.transporter && config.fanoutRouting === 'rooms') {
      roomRouter = await RoomRouter.connect(
        config.transporter,
        config.namespace,
        config.nodeId ?? `node-${process.pid}`,
        tracing,
      );
      // What this node published while its link was dying reached no gateway: every socket syncs.
      const router = roomRouter;
      router.onReconnect(() => router.requestResync());
    }

    const rateLimits = new RateLimits({
      enabled: config.rateLimit === 'on',
      overrides: config.rateLimits,
      ...(redis ? { redis } : {}),
    });
    const app: AppContext = {
      config,
      logger,
      readiness,
      metrics,
      rateLimits,
      ...(mongo ? { mongo } : {}),
      ...(redis ? { redis } : {}),
      ...(storage ? { storage } : {}),
      ...(roomRouter ? { roomRouter } : {}),
      ...(tracing ? { tracing } : {}),
    };
    broker = createBroker({
      config,
      logger,
      rateLimits,
      ...(tracing ? { tracing } : {}),
      ...(brokerOverrides ? { overrides: brokerOverrides } : {}),
    });
    const running = broker;
    if (roomRouter) {
      routeEventsByRoom(broker, roomRouter);
      // The broker's own link lost broadcasts the same way (presence, caches): the same request.
      const router = roomRouter;
      broker.localBus.on('$transporter.connected', (payload: { wasReconnect?: boolean }) => {
        if (payload.wasReconnect) router.requestResync();
      });
    }
    if (config.transporter) {
      readiness.add('nats', async () => {
        if (!running.transit?.connected) throw new Error('transporter not connected');
      });
    }
    for (const name of config.services) broker.createService(SERVICE_FACTORIES[name](app));
    await broker.start();
    logger.info(
      {
        nodeID: broker.nodeID,
        services: config.services,
        transporter: config.transporter ? 'nats' : 'local',
        ...(tracing ? { tracing: tracing.serviceName } : {}),
      },
      'node started',
    );

    return {
      app,
      broker,
      stop: async () => {
        await running.stop();
        await closeClients();
      },
    };
  } catch (err) {
    await broker?.stop().catch(() => undefined);
    await closeClients();
    throw err;
  }
}
