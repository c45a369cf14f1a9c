import type { Redis } from 'ioredis';
import type { Context } from 'moleculer';
import type { CallerMeta } from '../validation/params.ts';
import { clientAddressKey } from './address-key.ts';
import { RateLimiter } from './rate-limiter.ts';
import { RATE_LIMITS, type RateLimitName, type RateLimitOverrides } from './policy.ts';

/**
 * Enforces the policy table: one limiter per limit, in Redis when the node
 * has one (every node shares the counts), else in memory.
 */
/** A backoff limit's repeat offences are remembered this long. */
const STRIKE_MEMORY_SEC = 86_400;
const MAX_BACKOFF_SEC = 3_600;

export class RateLimits {
  readonly enabled: boolean;
  readonly #limiters = new Map<RateLimitName, RateLimiter>();
  /** For backoff limits: how often each key reached the limit lately. */
  readonly #strikes = new Map<RateLimitName, RateLimiter>();
  readonly #windows = new Map<RateLimitName, number>();

  constructor(options: { enabled: boolean; overrides?: RateLimitOverrides; redis?: Redis }) {
    this.enabled = options.enabled;
    if (!options.enabled) return;
    for (const [name, policy] of Object.entries(RATE_LIMITS) as Array<
      [RateLimitName, (typeof RATE_LIMITS)[RateLimitName]]
    >) {
      const numbers = options.overrides?.[name] ?? policy;
      this.#windows.set(name, numbers.windowSeconds);
      if ('failures' in policy && policy.failures === 'backoff')
        this.#strikes.set(
          name,
          new RateLimiter(
            { name: `${name}:strikes`, points: 1_000_000, windowSeconds: STRIKE_MEMORY_SEC },
            { enabled: true, ...(options.redis ? { redis: options.redis } : {}) },
          ),
        );
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

  /**
   * Failure-counting limits (RATE_LIMITS entries with `failures`): `check`
   * refuses a key that has used up its window, `fail` counts one failure
   * (and, for backoff limits, holds the key twice as long as last time once
   * it reaches the limit), `reset` forgets the key after a success.
   */
  async check(name: RateLimitName, key: string): Promise<void> {
    await this.#limiters.get(name)?.check(key);
  }

  async fail(name: RateLimitName, key: string): Promise<void> {
    const limiter = this.#limiters.get(name);
    if (!limiter) return;
    const failures = await limiter.count(key);
    const strikes = this.#strikes.get(name);
    if (!strikes || failures !== limiter.points) return;
    const strike = await strikes.count(key);
    const window = this.#windows.get(name) ?? 60;
    await limiter.block(key, Math.min(MAX_BACKOFF_SEC, window * 2 ** (strike - 1)));
  }

  async reset(name: RateLimitName, key: string): Promise<void> {
    await this.#limiters.get(name)?.reset(key);
  }

  /** Counts one call of an action against each of its limits, keyed as the policy says. */
  async consumeFor(names: readonly RateLimitName[], ctx: Context<unknown, CallerMeta>): Promise<void> {
    for (const name of names) await this.consume(name, keyFor(name, ctx));
  }
}

/** The key a per-address limit counts a client address under (an IPv6 address by its /64). */
export const addressKey = (address: string | undefined): string => `ip:${clientAddressKey(address ?? 'local')}`;

/** The key a limit counts a call under, as the policy's `per` says. */
export function keyFor(name: RateLimitName, ctx: Context<unknown, CallerMeta>): string {
  const per = RATE_LIMITS[name].per;
  const ip = addressKey(ctx.meta.ip);
  if (per === 'ip-username') {
    const username = (ctx.params as { username?: unknown } | undefined)?.username;
    // Case and spaces do not make another account, so they do not make another count.
    return `${ip}|${typeof username === 'string' ? username.trim().toLowerCase() : ''}`;
  }
  if (per === 'user' && ctx.meta.user?.id) return ctx.meta.user.id;
  return ip;
}
