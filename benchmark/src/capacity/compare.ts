// `npm run bench -- compare <ref-a> <ref-b>`: did a release change how many
// people this machine carries? Both refs are checked out as worktrees and run
// the same bounded and unbounded capacity tests, each on a fresh copy of the
// same dataset (same seed), with this checkout's load generator; runs
// alternate A, B, A, B so drift of the machine spreads over both.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startMongo } from '@im/dev-servers';
import { withDatabase } from '@im/testkit';
import { connectMongo } from '@im/sdk';
import { machineFacts } from '../lib/machine.ts';
import { phasedProgress } from '../lib/progress.ts';
import { RESULTS_DIR } from '../lib/report.ts';
import { DEFAULT_CONFIG_PATH, loadCapacityConfig } from './config.ts';
import { renderComparison, type ComparedRelease } from './compare-report.ts';
import { CAPACITY_ARGS, runCapacity } from './run.ts';
import { seedDataset } from './seed.ts';
import type { CapacityResult } from './types.ts';
import { checkoutRef, resolveRef, type Checkout } from './worktree.ts';

const USAGE =
  'usage: npm run bench -- compare <ref-a> <ref-b> [--repeat N] [--modes bounded,unbounded] ' +
  '[--users N] [--duration S] [--unbounded-users N] [--unbounded-duration S] [--step-users N] [--step-seconds S] ' +
  '[--window-seconds S] [--dataset-users N] [--dataset-groups G] [--dataset-messages M] [--seed S] [--config FILE] ' +
  '[--processes P] [--cluster] [--keep-worktrees] [--out DIR]\n';

type Mode = 'bounded' | 'unbounded';

function usageError(message: string): never {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) usageError(`--${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  return n;
}

export async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      ...CAPACITY_ARGS,
      repeat: { type: 'string' },
      modes: { type: 'string' },
      'unbounded-users': { type: 'string' },
      'unbounded-duration': { type: 'string' },
      cluster: { type: 'boolean', default: false },
      'keep-worktrees': { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals.length !== 2) usageError('give exactly two git refs to compare');
  const [refA, refB] = positionals as [string, string];
  const modes = (values.modes ?? 'bounded,unbounded').split(',').map((m) => m.trim());
  for (const m of modes) if (m !== 'bounded' && m !== 'unbounded') usageError(`unknown mode '${m}' in --modes`);
  const repeat = positiveInt('repeat', values.repeat, 1);
  const configPath = values.config ? resolve(values.config) : DEFAULT_CONFIG_PATH;
  loadCapacityConfig(configPath);
  const datasetOptions = {
    users: positiveInt('dataset-users', values['dataset-users'], 3000),
    groups: positiveInt('dataset-groups', values['dataset-groups'], 100),
    messages: positiveInt('dataset-messages', values['dataset-messages'], 100_000),
    seed: positiveInt('seed', values.seed, 1),
  };
  const processes = values.processes ? positiveInt('processes', values.processes, 1) : undefined;
  const windowSeconds = values['window-seconds']
    ? positiveInt('window-seconds', values['window-seconds'], 1)
    : undefined;
  const runOptions = {
    bounded: {
      users: positiveInt('users', values.users, 200),
      durationSeconds: positiveInt('duration', values.duration, 300),
    },
    unbounded: {
      users: positiveInt('unbounded-users', values['unbounded-users'], 100),
      durationSeconds: positiveInt('unbounded-duration', values['unbounded-duration'], 1800),
      stepUsers: positiveInt('step-users', values['step-users'], 100),
      stepSeconds: positiveInt('step-seconds', values['step-seconds'], 60),
    },
  };
  // Bad refs fail before anything is checked out or started.
  const commits = [await resolveRef(refA), await resolveRef(refB)];

  const work = mkdtempSync(join(tmpdir(), 'im-compare-'));
  const checkouts: Checkout[] = [];
  const results = new Map<string, CapacityResult[]>();
  const mongo = await startMongo({ url: process.env.MONGO_URL, preferInMemory: !process.env.MONGO_URL });
  try {
    for (const [label, ref] of [
      ['a', refA],
      ['b', refB],
    ] as const) {
      process.stdout.write(`checking out ${ref} (${label.toUpperCase()})\n`);
      const checkout = await checkoutRef(ref, work, label);
      process.stdout.write(`  ${checkout.dir}: ${checkout.commit.slice(0, 10)}, packages ${checkout.packages}\n`);
      checkouts.push(checkout);
    }
    let runNumber = 0;
    const total = repeat * modes.length * 2;
    for (let r = 1; r <= repeat; r++) {
      for (const mode of modes as Mode[]) {
        for (const [index, checkout] of checkouts.entries()) {
          runNumber += 1;
          const label = index === 0 ? 'A' : 'B';
          process.stdout.write(`\nrun ${runNumber}/${total}: ${mode}, ${label} (${checkout.ref})\n`);
          // Each run gets its own copy of the dataset: identical by seed, untouched by the other runs.
          const mongoUrl = withDatabase(mongo.url, `compare_${label.toLowerCase()}_${mode}_${r}`);
          const dataset = await seedWithProgress(mongoUrl, datasetOptions);
          const result = await runCapacity({
            mode,
            cluster: values.cluster,
            mongoUrl,
            dataset,
            serverRoot: checkout.dir,
            configPath,
            mongoKind: mongo.kind,
            ...(mongo.kind === 'mongo-java-server' && mongo.process?.pid ? { databasePid: mongo.process.pid } : {}),
            ...(processes ? { processes } : {}),
            ...(windowSeconds ? { windowSeconds } : {}),
            ...runOptions[mode],
          });
          process.stdout.write(
            `  ${mode} ${label}: ${result.supportedUsers} users, request p99 ${result.summary.requestP99Ms} ms, ` +
              `avg ${result.summary.requestAvgMs} ms, errors ${result.summary.errors}, lost ${result.summary.lostMessages}\n`,
          );
          const key = `${label}:${mode}`;
          results.set(key, [...(results.get(key) ?? []), result]);
          await dropDatabase(mongoUrl);
        }
      }
    }
  } finally {
    await mongo.stop();
    if (!values['keep-worktrees']) {
      for (const c of checkouts) await c.remove();
      rmSync(work, { recursive: true, force: true });
    } else if (checkouts.length > 0) process.stdout.write(`worktrees kept in ${work}\n`);
  }

  const releases: [ComparedRelease, ComparedRelease] = [
    { label: 'A', ref: refA, commit: commits[0]!, runs: pick(results, 'A') },
    { label: 'B', ref: refB, commit: commits[1]!, runs: pick(results, 'B') },
  ];
  const dir = values.out
    ? resolve(values.out)
    : join(RESULTS_DIR, `compare-${commits[0]!.slice(0, 8)}-${commits[1]!.slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  const report = renderComparison(releases, { repeat, machine: machineFacts(), dataset: datasetOptions });
  writeFileSync(join(dir, 'compare.md'), report.markdown);
  for (const chart of report.charts) writeFileSync(join(dir, chart.file), chart.svg);
  writeFileSync(join(dir, 'compare.json'), `${JSON.stringify({ releases, verdicts: report.verdicts }, null, 2)}\n`);
  process.stdout.write(`\n${report.summary}\nwritten ${join(dir, 'compare.md')} (+ ${report.charts.length} charts)\n`);
}

function pick(results: Map<string, CapacityResult[]>, label: 'A' | 'B'): ComparedRelease['runs'] {
  return {
    bounded: results.get(`${label}:bounded`) ?? [],
    unbounded: results.get(`${label}:unbounded`) ?? [],
  };
}

async function seedWithProgress(
  mongoUrl: string,
  options: { users: number; groups: number; messages: number; seed: number },
) {
  const bars = phasedProgress();
  try {
    return await seedDataset({
      mongoUrl,
      ...options,
      onProgress: bars.onProgress,
    });
  } finally {
    bars.stop();
  }
}

async function dropDatabase(mongoUrl: string): Promise<void> {
  const connection = await connectMongo(mongoUrl, { timeoutMs: 15_000 });
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}
