// `npm test`: starts one set of real servers (MongoDB wire server, Redis, NATS,
// MinIO) on free loopback ports, runs the test files against them (each file
// takes its own database/prefix/bucket), several at once, then stops them,
// whatever the outcome. How files share the machine: runner/plan.ts.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServers } from '@im/dev-servers';
import { planFiles } from './runner/plan.ts';
import { failureDetails } from './runner/failure-details.ts';
import { runFile, type FileOutcome } from './runner/run-file.ts';
import { runPool } from './runner/schedule.ts';
import { readTimings, seconds, slowestTable, timingsPath, writeTimings } from './runner/timings.ts';
import { TESTKIT_ENV } from './test-env.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Pool slots (a browser file takes two). Most files wait (on a node starting,
 * NATS round trips, a browser) more than they compute: on two cores, four
 * slots keep the CPU busy and let two browser files run side by side (three
 * ran them one at a time, for no gain on the other files).
 */
const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism() + 2;

const planned = planFiles(root, process.argv.slice(2));
if (planned.length === 0) {
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

const env: NodeJS.ProcessEnv = {
  ...process.env,
  // Every file (and every server process a file spawns) loads much of the tree: V8's compiled
  // code kept on disk saves about a third of that load's CPU after the first file.
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules/.cache/node-compile'),
  NODE_ENV: 'test',
  // Servers the tests start make no LiveKit server of their own; the call tests start theirs.
  VOICE: 'off',
  [TESTKIT_ENV.mongo]: servers.mongo!.url,
  [TESTKIT_ENV.redis]: servers.redis!.url,
  [TESTKIT_ENV.nats]: servers.nats!.url,
  [TESTKIT_ENV.minio]: servers.minio!.url,
};

const running = new Set<() => void>();
let stopping = false;
const finish = async (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const stop of running) stop();
  await servers.stop();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void finish(130));

// Alone files last; otherwise the longest (as last measured) first.
const timingsFile = timingsPath(root);
const previous = readTimings(timingsFile);
const order = [...planned].sort(
  (a, b) => Number(a.alone) - Number(b.alone) || (previous[b.file] ?? 0) - (previous[a.file] ?? 0),
);
const alone = order.filter((f) => f.alone).length;
console.log(
  `[test] ${planned.length} files in ${concurrency} slots (TEST_CONCURRENCY; a browser file takes two), ${alone} alone at the end (// test-run: alone)`,
);

const testsStarted = Date.now();
let done = 0;
const outcomes: FileOutcome[] = await runPool(
  order.map((f) => ({
    slots: f.slots,
    alone: f.alone,
    run: async () => {
      const outcome = await runFile(root, f.file, env, running);
      done += 1;
      console.log(
        `\n[test] ${outcome.ok ? 'ok  ' : 'FAIL'} ${f.file} (${seconds(outcome.ms)}, ${done}/${planned.length})`,
      );
      process.stdout.write(outcome.output);
      return outcome;
    },
  })),
  concurrency,
);
writeTimings(timingsFile, previous, outcomes);

const failed = outcomes.filter((o) => !o.ok);
const tests = outcomes.reduce((n, o) => n + o.tests, 0);
console.log(`\n[test] slowest files:\n${slowestTable(outcomes, 15)}`);
// A failure's details again at the very end, where a log's tail (all that CI
// may show) still has them; they printed long before, between other files.
for (const f of failed) console.log(`\n[test] failure in ${f.file}:\n${failureDetails(f.output)}`);
console.log(
  `[test] ${outcomes.length} files, ${tests} tests in ${seconds(Date.now() - testsStarted)}` +
    (failed.length > 0 ? `; FAILED: ${failed.map((o) => o.file).join(', ')}` : '; all passed'),
);
await finish(failed.length > 0 ? 1 : 0);
