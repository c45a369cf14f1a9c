// Starts what a benchmark measures, as an operator would run it: the single
// instance (`npm start`'s entry point) or the local cluster (`npm run
// cluster`), each its own process tree, against a real MongoDB wire server.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  freePort,
  ManagedProcess,
  startMongo,
  startServerProcess,
  waitUntil,
  type MongoServerHandle,
} from '@im/dev-servers';
import { withDatabase } from '@im/testkit';
import { connectMongo } from '@im/sdk';
import { chosenStoreOfRun, type Store } from './args.ts';

/** This checkout: its runner is what a benchmark starts unless told another `serverRoot`. */
export const THIS_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const runnerEntry = (root: string, file: 'start.ts' | 'cluster.ts') => {
  const current = join(resolve(root), 'server', 'src', file);
  // Releases before the composition root moved to server/ kept it in packages/runner.
  return existsSync(current) ? current : join(resolve(root), 'packages', 'runner', 'src', file);
};

export interface Target {
  mode: 'single' | 'cluster';
  /** Base URLs of the gateways (one, or two in the cluster). */
  gateways: string[];
  /** Which MongoDB served the run (the dev server or a real one). */
  mongoKind: string;
  /**
   * Stops and starts the single instance again on the same port and data,
   * as an operator's restart: every cache of the server is cold after it
   * (sessions, rooms, recent messages). Not in the cluster.
   */
  restart?(): Promise<void>;
  stop(): Promise<void>;
}

export interface TargetOptions {
  cluster: boolean;
  /** Extra configuration for every node. */
  env?: Record<string, string>;
  /**
   * A database to run on, URL including its name, already filled (a seeded
   * dataset): used as it is and left in place afterwards. Unset: a fresh
   * `bench_<time>` database on the dev server or MONGO_URL, dropped at the end.
   */
  mongoUrl?: string;
  /** What to report as `mongoKind` for a given `mongoUrl` (default `external`). */
  mongoKind?: string;
  /**
   * A checkout (e.g. a git worktree of another release, with its own
   * node_modules) whose server/src/{start,cluster}.ts (packages/runner/src in older releases) is started
   * instead of this checkout's. The load generator stays this checkout's.
   */
  serverRoot?: string;
  /**
   * The single instance's database when no `mongoUrl` or MONGO_URL is given:
   * `embedded` (what a user runs: the H2 file in a fresh DATA_DIR, started by
   * the server itself) or `memory` (the in-memory dev server). Default: the
   * run's `--store`. The cluster always uses the dev server.
   */
  store?: Store;
}

/** Settings every benchmark deployment shares: quiet logs, no rate limits, cheap password hashing for bulk accounts, loopback push receivers. */
export const BENCH_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  RATE_LIMIT: 'off',
  PASSWORD_HASH_MEMORY_KIB: '1024',
  // The push and webhooks benchmarks' receivers listen on loopback, which the outbound guard refuses unless named.
  OUTBOUND_ALLOW: '127.0.0.1',
};

export async function startTarget(options: TargetOptions): Promise<Target> {
  const root = options.serverRoot ?? THIS_ROOT;
  const START = runnerEntry(root, 'start.ts');
  const CLUSTER = runnerEntry(root, 'cluster.ts');
  for (const entry of [START, CLUSTER]) {
    if (!existsSync(entry)) throw new Error(`serverRoot ${root} has no ${entry}: not a checkout of this platform`);
  }
  if (
    !options.cluster &&
    !options.mongoUrl &&
    !process.env.MONGO_URL &&
    (options.store ?? chosenStoreOfRun()) === 'embedded'
  )
    return startEmbeddedTarget(START, options.env);
  const { url: mongoUrl, kind: mongoKind, cleanup } = await openBenchDatabase(options);
  const env = { ...BENCH_ENV, MONGO_URL: mongoUrl, ...options.env };
  try {
    if (!options.cluster) {
      // One port and one signing key across a restart: the clients' addresses and tokens stay good.
      const single = { ...env, PORT: String(await freePort()), SECRET: randomBytes(32).toString('base64url') };
      let server = await startServerProcess(START, single);
      return {
        mode: 'single',
        gateways: [server.base],
        mongoKind,
        restart: async () => {
          await server.stop();
          server = await startServerProcess(START, single);
        },
        stop: async () => {
          keepLog(server.process.output());
          await server.stop();
          await cleanup();
        },
      };
    }
    const port = await freePortPair();
    const cluster = new ManagedProcess('cluster', process.execPath, [CLUSTER], {
      env: {
        ...process.env,
        NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
        ...env,
        PORT: String(port),
        SECRET: randomBytes(32).toString('base64url'),
      },
    });
    const gateways = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
    await Promise.all(
      gateways.map((base) =>
        waitUntil(
          `${base}/ready`,
          async () => {
            if (!cluster.running) throw new Error(`the cluster exited:\n${cluster.output()}`);
            const res = await fetch(`${base}/ready`);
            if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
          },
          90_000,
        ),
      ),
    );
    return {
      mode: 'cluster',
      gateways,
      mongoKind,
      stop: async () => {
        keepLog(cluster.output());
        await cluster.stop(20_000);
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * The single instance as a user runs it: no MONGO_URL, so it starts its
 * embedded database (mongo-java-server with the H2 file store) in its own
 * DATA_DIR, here a fresh one removed afterwards.
 */
async function startEmbeddedTarget(START: string, extra: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'im-bench-'));
  const port = String(await freePort());
  const env = {
    ...BENCH_ENV,
    // The benchmark's own settings (a push proxy's address, queue sizes), as on the other stores.
    ...extra,
    DATA_DIR: dataDir,
    DEV_DATABASE: 'file',
    PORT: port,
    SECRET: randomBytes(32).toString('base64url'),
  };
  // Reached only when MONGO_URL is unset: the server starts its own database.
  const start = () => startServerProcess(START, env);
  let server = await start().catch((err: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    mode: 'single',
    gateways: [server.base],
    mongoKind: 'embedded (H2 file)',
    restart: async () => {
      await server.stop();
      server = await start();
    },
    stop: async () => {
      keepLog(server.process.output());
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The database a run works in: `mongoUrl` as given (left in place), else a
 * fresh `bench_<time>` database on MONGO_URL's server (dropped by `cleanup`)
 * or on the dev server (stopped by `cleanup`).
 */
export async function openBenchDatabase(
  options: Pick<TargetOptions, 'mongoUrl' | 'mongoKind'>,
): Promise<{ url: string; kind: string; cleanup(): Promise<void> }> {
  const given = options.mongoUrl;
  const external = given ?? process.env.MONGO_URL;
  const mongo: MongoServerHandle = given
    ? { kind: 'external', url: given, stop: async () => undefined }
    : await startMongo({ url: external, preferInMemory: !external });
  const url = given ?? withDatabase(mongo.url, `bench_${Date.now()}`);
  return {
    url,
    kind: given ? (options.mongoKind ?? 'external') : mongo.kind,
    cleanup: async () => {
      // A seeded database someone handed us stays for the next run.
      if (external && !given) {
        // A shared server: remove what the run wrote.
        const connection = await connectMongo(url, { timeoutMs: 10_000 });
        await connection.dropDatabase();
        await connection.close();
      }
      await mongo.stop();
    },
  };
}

/** BENCH_SERVER_LOG=FILE keeps what the servers printed (warnings and errors) for a look after the run. */
function keepLog(output: string): void {
  const file = process.env.BENCH_SERVER_LOG;
  if (file) writeFileSync(file, `${output}\n`);
}

/** The cluster's gateways listen on PORT and PORT+1. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = await freePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
  throw new Error('no two free neighbouring ports on loopback');
}

async function isFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
