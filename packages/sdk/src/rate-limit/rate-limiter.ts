import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ImError } from '../errors/im-error.ts';

export interface RateLimitRule {
  /** Distinguishes the counters of different rules. */
  name: string;
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
}

const limited = (msBeforeNext: number) =>
  new ImError('IM_ERR_RATE_LIMITED', undefined, { retryAfterSec: Math.max(1, Math.ceil(msBeforeNext / 1000)) });

/**
 * A fixed-window limiter per key: in Redis when configured (so all nodes
 * share the count), else in memory. Disabled entirely by RATE_LIMIT=off.
 */
export class RateLimiter {
  readonly #limiter: RateLimiterAbstract | undefined;
  readonly points: number;

  constructor(rule: RateLimitRule, options: { enabled: boolean; redis?: Redis; keyPrefix?: string }) {
    this.points = rule.points;
    if (!options.enabled) return;
    const common = {
      keyPrefix: `${options.keyPrefix ?? ''}rl:${rule.name}`,
      points: rule.points,
      duration: rule.windowSeconds,
    };
    this.#limiter = options.redis
      ? new RateLimiterRedis({ ...common, storeClient: options.redis, useRedisPackage: false })
      : new RateLimiterMemory(common);
  }

  /** Counts one request for `key`; throws IM_ERR_RATE_LIMITED (with retryAfterSec) past the limit. */
  async consume(key: string): Promise<void> {
    if (!this.#limiter) return;
    try {
      await this.#limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw limited(err.msBeforeNext);
      throw err;
    }
  }

  /** Throws IM_ERR_RATE_LIMITED when `key` has used up its window, without counting anything. */
  async check(key: string): Promise<void> {
    const res = await this.#limiter?.get(key);
    if (res && res.consumedPoints >= this.points && res.msBeforeNext > 0) throw limited(res.msBeforeNext);
  }

  /** Counts one failure for `key`; answers how many it has in the window now. */
  async count(key: string): Promise<number> {
    const res = await this.#limiter?.penalty(key, 1);
    return res?.consumedPoints ?? 0;
  }

  /** Holds `key` at its limit for `seconds` (longer than a window: backoff). */
  async block(key: string, seconds: number): Promise<void> {
    await this.#limiter?.block(key, seconds);
  }

  async reset(key: string): Promise<void> {
    await this.#limiter?.delete(key);
  }
}
