import { fileURLToPath } from 'node:url';
import { freePort, ManagedProcess, waitUntil } from '@im/testkit';

const START = fileURLToPath(new URL('../../packages/runner/src/start.ts', import.meta.url));

/** The platform as its own process, as an operator runs it; the load generator stays outside it. */
export async function startServer(
  env: Record<string, string>,
): Promise<{ base: string; process: ManagedProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const server = new ManagedProcess('server', process.execPath, [START], {
    env: {
      ...process.env,
      // BENCH_SERVER_NODE_OPTIONS=--cpu-prof profiles the server without touching the load generator.
      NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      RATE_LIMIT: 'off',
      PORT: String(port),
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntil(
    'server /ready',
    async () => {
      const res = await fetch(`${base}/ready`);
      if (res.status !== 200) throw new Error(String(res.status));
    },
    60_000,
  );
  return { base, process: server, stop: () => server.stop() };
}
