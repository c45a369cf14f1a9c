import type { Context, Middleware } from 'moleculer';
import type { CallerMeta } from '../validation/params.ts';
import type { RateLimitName } from './policy.ts';
import type { RateLimits } from './rate-limits.ts';

/**
 * What an action declares to be rate limited: the limits (RATE_LIMITS) each
 * of its calls counts against. Moleculer keeps unknown keys of an action
 * definition, so the middleware finds it there.
 */
export interface RateLimitedAction {
  rateLimit?: RateLimitName | readonly RateLimitName[];
}

/**
 * Wraps every local action that declares `rateLimit`: its calls count
 * against those limits before the handler runs, whoever calls (the HTTP
 * API, a socket, another service on behalf of a user).
 */
export function rateLimitMiddleware(limits: RateLimits): Middleware {
  return {
    name: 'RateLimit',
    localAction(next, action) {
      const declared = (action as RateLimitedAction).rateLimit;
      if (!declared || !limits.enabled) return next;
      const names: readonly RateLimitName[] = typeof declared === 'string' ? [declared] : declared;
      return async function rateLimited(this: unknown, ctx: Context<unknown, CallerMeta>) {
        await limits.consumeFor(names, ctx);
        return next.call(this as never, ctx);
      } as typeof next;
    },
  };
}
