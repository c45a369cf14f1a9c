/**
 * Starts the local servers a machine may lack, on free loopback ports: the
 * MongoDB-compatible dev server (or mongod), Redis, NATS and MinIO. The
 * single instance and the local cluster use it when nothing is configured;
 * the test kit uses it for the suite's servers.
 */
export { startServers, type ServerSet, type WhichServers } from './servers/index.ts';
export { startMongo, type MongoServerHandle, type MongoKind, type StartMongoOptions } from './servers/mongo.ts';
export { startRedis, type RedisServerHandle, type StartRedisOptions } from './servers/redis.ts';
export {
  startRedisSentinel,
  type RedisSentinelHandle,
  type StartRedisSentinelOptions,
} from './servers/redis-sentinel.ts';
export { redisCommand, type RespValue } from './resp.ts';
export { startNats, type NatsServerHandle, type StartNatsOptions } from './servers/nats.ts';
export { startMinio, type MinioServerHandle, type StartMinioOptions } from './servers/minio.ts';
export {
  startLiveKit,
  newLiveKitKeys,
  LIVEKIT_VERSION,
  type LiveKitServerHandle,
  type StartLiveKitOptions,
} from './servers/livekit.ts';
export { ManagedProcess, waitForProcess, type StartProcessOptions } from './managed-process.ts';
export { freePort } from './free-port.ts';
export { waitUntil, tcpExchange } from './probes.ts';
export { findBinary, requireBinary, CACHE_DIR } from './binaries.ts';
export { startServerProcess, type ServerProcess, type ServerProcessOptions } from './server-process.ts';
