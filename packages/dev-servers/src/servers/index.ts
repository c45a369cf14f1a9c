import { startMinio, type MinioServerHandle } from './minio.ts';
import { startMongo, type MongoServerHandle } from './mongo.ts';
import { startNats, type NatsServerHandle } from './nats.ts';
import { startRedis, type RedisServerHandle } from './redis.ts';

export interface ServerSet {
  mongo?: MongoServerHandle;
  redis?: RedisServerHandle;
  nats?: NatsServerHandle;
  minio?: MinioServerHandle;
  stop(): Promise<void>;
}

export interface WhichServers {
  mongo?: boolean;
  redis?: boolean;
  nats?: boolean;
  minio?: boolean;
}

/** Starts the requested servers in parallel; if one fails, stops the others and rethrows. */
export async function startServers(which: WhichServers, mongoUrl = process.env.MONGO_URL): Promise<ServerSet> {
  const results = await Promise.allSettled([
    which.mongo ? startMongo({ url: mongoUrl }) : undefined,
    which.redis ? startRedis() : undefined,
    which.nats ? startNats() : undefined,
    which.minio ? startMinio() : undefined,
  ]);
  const [mongo, redis, nats, minio] = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined)) as [
    MongoServerHandle?,
    RedisServerHandle?,
    NatsServerHandle?,
    MinioServerHandle?,
  ];
  const stop = async () => {
    await Promise.all([mongo?.stop(), redis?.stop(), nats?.stop(), minio?.stop()]);
  };
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) {
    await stop();
    throw new Error(failed.map((f) => (f.reason instanceof Error ? f.reason.message : String(f.reason))).join('\n'));
  }
  return {
    ...(mongo ? { mongo } : {}),
    ...(redis ? { redis } : {}),
    ...(nats ? { nats } : {}),
    ...(minio ? { minio } : {}),
    stop,
  };
}
