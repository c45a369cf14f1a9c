import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, mongoJavaServerClasspath, requireBinary } from '../binaries.ts';
import { freePort } from '../free-port.ts';
import { ManagedProcess, waitForProcess as ready } from '../managed-process.ts';
import { tcpExchange } from '../probes.ts';

/** How long the embedded database may take to open its file and listen. */
const EMBEDDED_OPEN_TIMEOUT_MS = 180_000;

export type MongoKind = 'external' | 'mongod' | 'mongo-java-server';

export interface MongoServerHandle {
  kind: MongoKind;
  /** Base URL without a database name. */
  url: string;
  process?: ManagedProcess;
  stop(): Promise<void>;
}

export interface StartMongoOptions {
  /** Use this server instead of starting one (MONGO_URL). */
  url?: string;
  /** mongod data directory; a temporary one (removed on stop) when unset. */
  dbPath?: string;
  /** Skip mongod even if installed (forces mongo-java-server). */
  preferInMemory?: boolean;
  /**
   * mongo-java-server keeps its data in this file (H2 backend) instead of in
   * memory: changes reach it every 100 ms and when the server stops; one
   * process at a time may hold it.
   */
  dataFile?: string;
  host?: string;
  port?: number;
  /** Run inside this network namespace (mongo-java-server only). */
  netns?: string;
}

/**
 * A MongoDB wire-protocol server: the given URL, else `mongod` on PATH, else
 * mongo-java-server in memory (fetched by scripts/setup.sh).
 */
export async function startMongo(options: StartMongoOptions = {}): Promise<MongoServerHandle> {
  if (options.url) return { kind: 'external', url: options.url, stop: async () => undefined };
  const host = options.host ?? '127.0.0.1';
  const mongod = options.preferInMemory ? undefined : findBinary('mongod');
  if (mongod) {
    const port = options.port ?? (await freePort(host));
    const dbPath = options.dbPath ?? mkdtempSync(join(tmpdir(), 'im-mongod-'));
    const proc = new ManagedProcess('mongod', mongod, [
      '--bind_ip',
      host,
      '--port',
      String(port),
      '--dbpath',
      dbPath,
      '--quiet',
    ]);
    await ready(proc, () =>
      tcpExchange(port, null, host).catch((e: unknown) => {
        // mongod sends nothing first; a refused connection is the only failure.
        if ((e as Error).message === 'no answer') return;
        throw e;
      }),
    );
    return {
      kind: 'mongod',
      url: `mongodb://${host}:${port}`,
      process: proc,
      stop: async () => {
        await proc.stop();
        if (!options.dbPath) rmSync(dbPath, { recursive: true, force: true });
      },
    };
  }
  const classpath = mongoJavaServerClasspath();
  if (!classpath) {
    throw new Error(
      'no MongoDB available: set MONGO_URL, put mongod on PATH, or run scripts/setup.sh to fetch mongo-java-server',
    );
  }
  let address: string | undefined;
  let failure: string | undefined;
  const proc = new ManagedProcess(
    'mongo-java-server',
    requireBinary('java', 'install Java 17: bash scripts/setup.sh run'),
    [
      '-Xss512k',
      '-XX:+UseSerialGC',
      ...heapOption(),
      '-cp',
      classpath,
      'MongoDevServer',
      host,
      String(options.port ?? 0),
      ...(options.dataFile ? [options.dataFile] : []),
    ],
    {
      tether: false,
      ...(options.netns ? { netns: options.netns } : {}),
      onLine: (line) => {
        const match = /^listening (\S+)$/.exec(line);
        if (match) address = match[1];
        if (line.startsWith('error: ')) failure = line.slice('error: '.length);
      },
    },
  );
  await ready(
    proc,
    async () => {
      if (!address) throw new Error('not listening yet');
    },
    // A file store is someone's data: opening a large one on a slow or busy machine must not fail the start.
    options.dataFile ? EMBEDDED_OPEN_TIMEOUT_MS : undefined,
  ).catch((err: unknown) => {
    throw failure ? new Error(`mongo-java-server ${failure}`) : err;
  });
  return { kind: 'mongo-java-server', url: `mongodb://${address}`, process: proc, stop: () => proc.stop() };
}

/**
 * MONGO_DEV_SERVER_HEAP (e.g. `8g`, `3072m`) sets the dev server's maximum
 * heap. Unset, the JVM's default applies: a quarter of the machine's memory.
 * The server keeps everything in that heap: a capacity dataset of 1M messages
 * (1.46M documents) holds about 2.5 GiB live.
 */
function heapOption(): string[] {
  const heap = process.env.MONGO_DEV_SERVER_HEAP?.trim();
  if (!heap) return [];
  if (!/^\d+[kmg]?$/i.test(heap)) throw new Error(`MONGO_DEV_SERVER_HEAP must look like 4g or 4096m (got ${heap})`);
  return [`-Xmx${heap}`];
}
