import type { Redis } from 'ioredis';
import type { Context } from 'moleculer';
import type { CallerMeta } from '../validation/params.ts';
import { RateLimiter } from './rate-limiter.ts';
import { RATE_LIMITS, type RateLimitName, type RateLimitOverrides } from './policy.ts';

/**
 * Enforces the policy table: one limiter per limit, in Redis when the node
 * has one (every node shares the counts), else in memory.
 */
export class RateLimits {
  readonly enabled: boolean;
  readonly #limiters = new Map<RateLimitName, RateLimiter>();

  constructor(options: { enabled: boolean; overrides?: RateLimitOverrides; redis?: Redis }) {
    this.enabled = options.enabled;
    if (!options.enabled) return;
    for (const [name, policy] of Object.entries(RATE_LIMITS) as Array<
      [RateLimitName, (typeof RATE_LIMITS)[RateLimitName]]
    >) {
      const numbers = options.overrides?.[name] ?? policy;
      this.#limiters.set(
        name,
        new RateLimiter(
          { name, points: numbers.points, windowSeconds: numbers.windowSeconds },
          { enabled: true, ...(options.redis ? { redis: options.redis } : {}) },
        ),
      );
    }
  }

  /** Counts one request of `key` against the limit; IM_ERR_RATE_LIMITED (with retryAfterSec) past it. */
  async consume(name: RateLimitName, key: string): Promise<void> {
    await this.#limiters.get(name)?.consume(key);
  }

  /** Counts one call of an action against each of its limits, keyed as the policy says. */
  async consumeFor(names: readonly RateLimitName[], ctx: Context<unknown, CallerMeta>): Promise<void> {
    for (const name of names) await this.consume(name, keyFor(name, ctx));
  }
}

function keyFor(name: RateLimitName, ctx: Context<unknown, CallerMeta>): string {
  const per = RATE_LIMITS[name].per;
  if (per === 'username') {
    const username = (ctx.params as { username?: unknown } | undefined)?.username;
    // Case and spaces do not make another account, so they do not make another count.
    return typeof username === 'string' ? username.trim().toLowerCase() : '';
  }
  if (per === 'user' && ctx.meta.user?.id) return ctx.meta.user.id;
  return `ip:${ctx.meta.ip ?? 'local'}`;
}
