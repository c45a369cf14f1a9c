import DataLoader from 'dataloader';

export interface BatchLoaderOptions<K> {
  /** Identity of a key: equal keys in one batch share one answer. */
  keyOf?: (key: K) => string;
  /** Bigger batches are split. */
  maxBatch?: number;
}

/**
 * Coalesces the lookups made during one turn of the event loop into one
 * call of `loadMany` (one query with `$in` instead of one per caller): what
 * a connect storm of thousands of sockets needs. Answers are never older
 * than the request: a batch runs only after every request in it arrived,
 * and nothing is cached across batches.
 *
 * `loadMany` gets distinct keys and returns one answer per key, in order.
 */
export function batchLoader<K, V>(
  loadMany: (keys: readonly K[]) => Promise<readonly V[]>,
  options: BatchLoaderOptions<K> = {},
): (key: K) => Promise<V> {
  const loader: DataLoader<K, V, string> = new DataLoader<K, V, string>(
    async (keys) => {
      // Later requests start a new batch instead of joining this one's answer.
      loader.clearAll();
      return loadMany(keys);
    },
    {
      // After the poll phase: every request read from the network in this turn is in.
      batchScheduleFn: (run) => setImmediate(run),
      cacheKeyFn: options.keyOf ?? ((key: K) => String(key)),
      maxBatchSize: options.maxBatch ?? 500,
    },
  );
  return (key) => loader.load(key);
}

/** Groups rows by a key: the usual last step of a batched `$in` query. */
export function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
