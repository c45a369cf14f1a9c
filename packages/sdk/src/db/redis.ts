import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import { maskUrlPassword } from '../config/describe.ts';
import { formatHostPort, type HostPort } from '../net/host-port-list.ts';
import { DependencyUnavailableError, reason } from './mongo.ts';
import { watchRedisLiveness } from './redis-liveness.ts';

const livenessWatches = new WeakMap<Redis, () => void>();

/** Redis reached through Sentinel: which sentinels to ask, for which master group. */
export interface RedisSentinelSettings {
  sentinels: HostPort[];
  /** The master group's name (REDIS_SENTINEL_NAME). */
  name: string;
  /** The sentinels' own password, when they have one. */
  password?: string;
}

export interface RedisOptions {
  timeoutMs: number;
  /** Prefix for every key this client touches (tests give each file its own). */
  keyPrefix?: string;
  /** Set: `url` gives only the master's password, database and TLS; the sentinels name its address. */
  sentinel?: RedisSentinelSettings;
}

/** The Sentinel part of the configuration, when REDIS_SENTINELS is set. */
export function redisSentinelSettings(config: {
  redisSentinels?: HostPort[] | undefined;
  redisSentinelName: string;
  redisSentinelPassword?: string | undefined;
}): RedisSentinelSettings | undefined {
  if (!config.redisSentinels) return undefined;
  return {
    sentinels: config.redisSentinels,
    name: config.redisSentinelName,
    ...(config.redisSentinelPassword ? { password: config.redisSentinelPassword } : {}),
  };
}

// Reconnect backoff, to the one Redis or (through Sentinel) to whichever master the sentinels name.
const backoff = (times: number) => Math.min(times * 200, 2000);

/**
 * The client options every connection of a node is made with (the
 * duplicates a blocking reader takes copy them).
 */
export function redisClientOptions({ timeoutMs, keyPrefix, sentinel }: RedisOptions, url: string): IoRedisOptions {
  const common: IoRedisOptions = {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 3,
    retryStrategy: backoff,
    // A master demoted by a failover answers writes with READONLY: reconnect
    // (to the new master) and send the command again instead of failing it.
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
    ...(keyPrefix ? { keyPrefix } : {}),
  };
  if (!sentinel) return common;
  const tls = url.startsWith('rediss://');
  return {
    ...common,
    sentinels: sentinel.sentinels.map(({ host, port }) => ({ host, port })),
    name: sentinel.name,
    role: 'master',
    ...(sentinel.password ? { sentinelPassword: sentinel.password } : {}),
    sentinelRetryStrategy: backoff,
    sentinelCommandTimeout: timeoutMs,
    // No failoverDetector: a failover reaches every client without it (a
    // killed master drops its connections; a demoted one has its clients
    // killed by the sentinels, and READONLY covers the rest), and its
    // subscriptions outlive quit() in ioredis 5.
    ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
  };
}

/** Where a client goes, for error messages (password masked). */
export function describeRedisTarget(url: string, sentinel?: RedisSentinelSettings): string {
  if (!sentinel) return maskUrlPassword(url);
  return `master '${sentinel.name}' through the sentinels ${sentinel.sentinels.map(formatHostPort).join(',')}`;
}

/**
 * Connects to Redis (or, through Sentinel, to its master) and waits for a
 * PONG, failing within `timeoutMs` with a clear error. Once up, the client
 * reconnects on its own after outages and, through Sentinel, asks the
 * sentinels for the master at each reconnect: it follows a failover. A ping
 * every 2 s unanswered within 3 s drops the connection (see redis-liveness).
 */
export async function connectRedis(url: string, options: RedisOptions): Promise<Redis> {
  const redis = new Redis(url, redisClientOptions(options, url));
  // Errors during reconnects surface through failed commands and /ready.
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), options.timeoutMs);
      }),
    ]);
    // A host that dies silently must not hold every command for minutes.
    livenessWatches.set(redis, watchRedisLiveness(redis));
    return redis;
  } catch (err) {
    redis.disconnect();
    throw new DependencyUnavailableError(
      `cannot reach Redis at ${describeRedisTarget(url, options.sentinel)} within ${options.timeoutMs} ms (${reason(err)})`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes a client whatever its state: QUIT when connected (replies already
 * asked for still arrive), else stops its reconnecting at once (a QUIT would
 * wait for a Redis, or sentinels, that may never come back).
 */
export async function closeRedis(redis: Redis): Promise<void> {
  livenessWatches.get(redis)?.();
  if (redis.status === 'ready') {
    const quit = await redis.quit().catch(() => undefined);
    if (quit === 'OK') return;
  }
  redis.disconnect();
}
