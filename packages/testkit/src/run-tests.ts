// `npm test`: starts one set of real servers (MongoDB wire server, Redis, NATS,
// MinIO) on free loopback ports, runs every test file with node:test against
// them (each file takes its own database/prefix/bucket), then stops them,
// whatever the outcome.
import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServers } from '@im/dev-servers';
import { TESTKIT_ENV } from './test-env.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PATTERNS = [
  'packages/*/test/**/*.test.ts',
  'server/test/**/*.test.ts',
  'services/*/test/**/*.test.ts',
  'gateway/test/**/*.test.ts',
  'benchmark/test/**/*.test.ts',
  // The web client's browser tests (node:test files driving Chromium against real servers).
  'client/e2e/**/*.test.ts',
];

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : PATTERNS.flatMap((p) => globSync(p, { cwd: root })).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const started = Date.now();
console.log('[test] starting MongoDB-compatible server, Redis, NATS and MinIO on loopback');
const servers = await startServers({ mongo: true, redis: true, nats: true, minio: true }).catch((err: unknown) => {
  console.error(`[test] could not start the test servers:\n${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
console.log(
  `[test] servers up in ${Date.now() - started} ms: mongo(${servers.mongo!.kind}) ${servers.mongo!.url}, ${servers.redis!.url}, ${servers.nats!.url}, minio http://127.0.0.1:${servers.minio!.port}`,
);

const child = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-timeout=300000', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    // Servers the tests start make no LiveKit server of their own; the call tests start theirs.
    VOICE: 'off',
    [TESTKIT_ENV.mongo]: servers.mongo!.url,
    [TESTKIT_ENV.redis]: servers.redis!.url,
    [TESTKIT_ENV.nats]: servers.nats!.url,
    [TESTKIT_ENV.minio]: servers.minio!.url,
  },
});

let stopping = false;
const finish = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await servers.stop();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    child.kill(signal);
    void finish(130);
  });
}
child.on('exit', (code, signal) => void finish(code ?? (signal ? 1 : 0)));
