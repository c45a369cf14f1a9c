import type { LRUCache } from 'lru-cache';

// An LRU cache with a TTL forgets an expired entry only when that key is read
// again (`ttlAutopurge` would give every entry its own timer instead). Keys
// that are never asked for again (a session that ended, a converse nobody
// opens) would stay until the cache is full, so every cache with a TTL is
// registered here and one timer per process purges them all.

/** How often expired entries leave the registered caches. */
export const STALE_SWEEP_MS = 60_000;

type Sweepable = Pick<LRUCache<never, never>, 'purgeStale'>;

const caches = new Set<WeakRef<Sweepable>>();
let timer: NodeJS.Timeout | undefined;

function sweep(): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) cache.purgeStale();
    else caches.delete(ref);
  }
  if (caches.size === 0) {
    clearInterval(timer);
    timer = undefined;
  }
}

/**
 * Purges the cache's expired entries every STALE_SWEEP_MS from now on. The
 * cache is held weakly: one that is dropped stops being swept. Returns it.
 */
export function sweepStale<C extends Sweepable>(cache: C): C {
  caches.add(new WeakRef(cache));
  if (!timer) {
    timer = setInterval(sweep, STALE_SWEEP_MS);
    // Never what keeps a process alive.
    timer.unref();
  }
  return cache;
}

/** Purges every registered cache now (tests, and a node about to report its memory). */
export const sweepStaleNow = (): void => sweep();
