import { Redis } from 'ioredis';
import { maskUrlPassword } from '../config/describe.ts';
import { DependencyUnavailableError, reason } from './mongo.ts';

export interface RedisOptions {
  timeoutMs: number;
  /** Prefix for every key this client touches (tests give each file its own). */
  keyPrefix?: string;
}

/**
 * Connects to Redis and waits for a PONG, failing within `timeoutMs` with a
 * clear error. Once up, the client reconnects on its own after outages.
 */
export async function connectRedis(url: string, { timeoutMs, keyPrefix }: RedisOptions): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 3,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...(keyPrefix ? { keyPrefix } : {}),
  });
  // Errors during reconnects surface through failed commands and /ready.
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      }),
    ]);
    return redis;
  } catch (err) {
    redis.disconnect();
    throw new DependencyUnavailableError(
      `cannot reach Redis at ${maskUrlPassword(url)} within ${timeoutMs} ms (${reason(err)})`,
    );
  } finally {
    clearTimeout(timer);
  }
}
