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

/**
 * A fixed-window limiter per key: in Redis when configured (so all nodes
 * share the count), else in memory. Disabled entirely by RATE_LIMIT=off.
 */
export class RateLimiter {
  readonly #limiter: RateLimiterAbstract | undefined;

  constructor(rule: RateLimitRule, options: { enabled: boolean; redis?: Redis; keyPrefix?: string }) {
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
      if (err instanceof RateLimiterRes) {
        throw new ImError('IM_ERR_RATE_LIMITED', undefined, {
          retryAfterSec: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        });
      }
      throw err;
    }
  }
}
