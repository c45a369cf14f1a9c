import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every benchmark takes. */
const COMMON = {
  cluster: { type: 'boolean', default: false },
  /**
   * The single instance's database: `embedded` (the default a user runs: the
   * H2 file store in a fresh DATA_DIR) or `memory` (the in-memory dev server).
   */
  store: { type: 'string', default: 'embedded' },
  out: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const satisfies Options;

export type Store = 'embedded' | 'memory';
let chosenStore: Store = 'embedded';

/** The `--store` of this run (what `startTarget` starts unless told otherwise). */
export const chosenStoreOfRun = (): Store => chosenStore;

/** Parses a benchmark's argv: the common options plus its own; unknown options are an error. */
export function benchArgs<O extends Options>(argv: string[], own: O) {
  const values = parseArgs({
    args: argv,
    options: { ...COMMON, ...own },
    strict: true,
    allowPositionals: false,
  }).values;
  const store = (values as { store?: unknown }).store;
  if (store !== 'embedded' && store !== 'memory') {
    process.stderr.write(`--store must be embedded or memory (got ${JSON.stringify(store)})\n`);
    process.exit(2);
  }
  chosenStore = store;
  return values;
}

/** A positive integer option, or a clear exit. */
export function intOption(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`--${name} must be a positive integer (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return n;
}

/** A comma-separated list of positive integers (`--members 1000,5000`). */
export function intListOption(name: string, raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  return raw.split(',').map((part) => intOption(name, part.trim(), 0));
}

/**
 * `--queue memory|redis` of the delivery benchmarks: the cluster always
 * queues in Redis, so there it defaults to redis and refuses memory. `what`
 * names the queued work in that refusal ("push jobs").
 */
export function queueOption(raw: string | undefined, cluster: boolean, what: string): 'memory' | 'redis' {
  const queue = raw ?? (cluster ? 'redis' : 'memory');
  if (queue !== 'memory' && queue !== 'redis') {
    process.stderr.write(`--queue must be memory or redis (got ${JSON.stringify(queue)})\n`);
    process.exit(2);
  }
  if (cluster && queue === 'memory') {
    process.stderr.write(`the cluster always queues ${what} in Redis: drop --queue memory\n`);
    process.exit(2);
  }
  return queue;
}

/** `--server-root DIR` as the target's option: another checkout's server, for before/after. */
export const serverRootOf = (raw: string | undefined) => (raw ? { serverRoot: raw } : {});
