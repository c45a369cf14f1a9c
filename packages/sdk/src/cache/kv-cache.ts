import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { sweepStale } from './stale-sweeper.ts';

/**
 * A small string cache: in process memory on a single instance, in Redis
 * (shared by every node) when REDIS_URL is set. Values are strings so both
 * behave the same.
 */
export interface KvCache {
  get(key: string): Promise<string | undefined>;
  /** Several keys in one round trip (one MGET in Redis), in the order asked. */
  getMany(keys: readonly string[]): Promise<Array<string | undefined>>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets the key only if it holds nothing (SET NX): whatever a writer put there first wins. */
  add(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  del(...keys: string[]): Promise<void>;
  /** Reads and removes in one step: of callers racing for a key, one gets the value (one-time codes). */
  take(key: string): Promise<string | undefined>;
}

export class MemoryCache implements KvCache {
  readonly #lru: LRUCache<string, string>;

  constructor(max = 100_000) {
    // Expired entries leave within a minute, read again or not.
    this.#lru = sweepStale(new LRUCache({ max, ttlAutopurge: false }));
  }

  async get(key: string): Promise<string | undefined> {
    return this.#lru.get(key);
  }

  async getMany(keys: readonly string[]): Promise<Array<string | undefined>> {
    return keys.map((key) => this.#lru.get(key));
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.#lru.set(key, value, { ttl: ttlSeconds * 1000 });
  }

  async add(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    // `has` answers false for an expired entry (and leaves it to the sweep).
    if (this.#lru.has(key)) return false;
    this.#lru.set(key, value, { ttl: ttlSeconds * 1000 });
    return true;
  }

  async del(...keys: string[]): Promise<void> {
    for (const key of keys) this.#lru.delete(key);
  }

  async take(key: string): Promise<string | undefined> {
    const value = this.#lru.get(key);
    this.#lru.delete(key);
    return value;
  }
}

export class RedisCache implements KvCache {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#redis.get(this.#prefix + key)) ?? undefined;
  }

  async getMany(keys: readonly string[]): Promise<Array<string | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.#redis.mget(...keys.map((k) => this.#prefix + k));
    return values.map((v) => v ?? undefined);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.#redis.set(this.#prefix + key, value, 'EX', ttlSeconds);
  }

  async add(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.#redis.set(this.#prefix + key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.#redis.del(...keys.map((k) => this.#prefix + k));
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.#redis.getdel(this.#prefix + key)) ?? undefined;
  }
}

/** The cache that fits the node: Redis when configured, else memory. */
export function createCache(redis: Redis | undefined, prefix: string): KvCache {
  return redis ? new RedisCache(redis, prefix) : new MemoryCache();
}
