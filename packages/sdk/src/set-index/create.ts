import type { AppContext } from '../app-context.ts';
import { MemorySetIndexStore } from './memory-store.ts';
import { RedisSetIndexStore } from './redis-store.ts';
import type { SetIndexStore } from './set-index-store.ts';

/**
 * The index store that fits the node, chosen like the caches: Redis (shared
 * by every node, under REDIS_KEY_PREFIX) when REDIS_URL is set, memory on a
 * single instance. A cluster without Redis gets none: each node's memory
 * would only see its own writes, so callers read the database instead.
 * `ROOM_INDEX=off` turns it off everywhere.
 */
export function createSetIndexStore(
  app: Pick<AppContext, 'redis' | 'config'>,
  name: string,
): SetIndexStore | undefined {
  if (app.config.roomIndex === 'off') return undefined;
  if (app.redis) return new RedisSetIndexStore(app.redis, name);
  return app.config.transporter ? undefined : new MemorySetIndexStore();
}
