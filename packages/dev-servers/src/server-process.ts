import { freePort } from './free-port.ts';
import { ManagedProcess } from './managed-process.ts';
import { waitUntil } from './probes.ts';

export interface ServerProcess {
  base: string;
  process: ManagedProcess;
  /** The server's resident memory, read from its Prometheus /metrics. */
  rssBytes(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs a node entry point (the platform's start script) as its own process on
 * a free port (or env.PORT) and waits for /ready, so tests and benchmarks can measure it
 * from outside.
 */
export interface ServerProcessOptions {
  /** Run inside this network namespace, reached at `host` (the namespace's address). */
  netns?: string;
  host?: string;
  /** Names the process in error messages. */
  name?: string;
}

export async function startServerProcess(
  script: string,
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  // A caller may name the port: one that another server must know in advance (an identity provider's callback).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const host = options.host ?? '127.0.0.1';
  const proc = new ManagedProcess(options.name ?? 'server', process.execPath, [script], {
    ...(options.netns ? { netns: options.netns } : {}),
    env: {
      ...process.env,
      // SERVER_NODE_OPTIONS=--cpu-prof profiles the server without touching the caller.
      NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      RATE_LIMIT: 'off',
      // No LiveKit server per test server: a test that makes calls turns VOICE on with its own ports.
      VOICE: 'off',
      PORT: String(port),
      ...(options.host ? { HOST: options.host } : {}),
      ...env,
    },
  });
  const base = `http://${host}:${port}`;
  try {
    await waitUntil(
      `${base}/ready`,
      async () => {
        if (!proc.running) throw new Error(`exited:\n${proc.output()}`);
        const res = await fetch(`${base}/ready`);
        if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      },
      // Its embedded database opens its file first (up to 3 minutes on a slow machine with a large one).
      240_000,
    );
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return {
    base,
    process: proc,
    rssBytes: async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const match = /^im_process_resident_memory_bytes (\d+)/m.exec(text);
      if (!match) throw new Error('no RSS in /metrics');
      return Number(match[1]);
    },
    stop: () => proc.stop(),
  };
}
