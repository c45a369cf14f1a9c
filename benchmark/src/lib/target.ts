// Starts what a benchmark measures, as an operator would run it: the single
// instance (`npm start`'s entry point) or the local cluster (`npm run
// cluster`), each its own process tree, against a real MongoDB wire server.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  freePort,
  ManagedProcess,
  startMongo,
  startServerProcess,
  waitUntil,
  withDatabase,
  type MongoServerHandle,
} from '@im/testkit';
import { connectMongo } from '@im/sdk';

const RUNNER = new URL('../../../packages/runner/src/', import.meta.url);
const START = fileURLToPath(new URL('start.ts', RUNNER));
const CLUSTER = fileURLToPath(new URL('cluster.ts', RUNNER));

export interface Target {
  mode: 'single' | 'cluster';
  /** Base URLs of the gateways (one, or two in the cluster). */
  gateways: string[];
  /** Which MongoDB served the run (the dev server or a real one). */
  mongoKind: string;
  stop(): Promise<void>;
}

export interface TargetOptions {
  cluster: boolean;
  /** Extra configuration for every node. */
  env?: Record<string, string>;
}

/** Settings every benchmark deployment shares: quiet logs, no rate limits, cheap password hashing for bulk accounts. */
const BENCH_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  RATE_LIMIT: 'off',
  PASSWORD_HASH_MEMORY_KIB: '1024',
};

export async function startTarget(options: TargetOptions): Promise<Target> {
  const external = process.env.MONGO_URL;
  const mongo: MongoServerHandle = await startMongo({ url: external, preferInMemory: !external });
  const database = `bench_${Date.now()}`;
  const mongoUrl = withDatabase(mongo.url, database);
  const env = { ...BENCH_ENV, MONGO_URL: mongoUrl, ...options.env };
  const cleanup = async () => {
    if (external) {
      // A shared server: remove what the run wrote.
      const connection = await connectMongo(mongoUrl, { timeoutMs: 10_000 });
      await connection.dropDatabase();
      await connection.close();
    }
    await mongo.stop();
  };
  try {
    if (!options.cluster) {
      const server = await startServerProcess(START, env);
      return {
        mode: 'single',
        gateways: [server.base],
        mongoKind: mongo.kind,
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
      mongoKind: mongo.kind,
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
