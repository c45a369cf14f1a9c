// `npm run bench -- soak`: does the server's memory stay flat under a steady
// load? A bounded capacity run (simulated people, default 150 for 60 minutes)
// on the default store, while the server's memory is read every few seconds
// (RSS, V8 heap, external and ArrayBuffer memory, handles, event-loop delay)
// and two heap snapshots are taken: when the warm-up ends (caches filled to
// their working size) and near the end. The report gives the change after
// the warm-up, the slope, the chart, and what grew between the snapshots.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startMongo, type MongoServerHandle } from '@im/dev-servers';
import { withDatabase } from '@im/testkit';
import { benchArgs, chosenStoreOfRun, intOption } from '../lib/args.ts';
import {
  collectionGrowth,
  heapGrowth,
  summarizeHeapSnapshot,
  takeHeapSnapshots,
  type HeapSummary,
} from '../lib/heap-snapshot.ts';
import { metric, scrape } from '../lib/metrics.ts';
import { findNodePid } from '../lib/node-pid.ts';
import { phasedProgress } from '../lib/progress.ts';
import { RESULTS_DIR, table } from '../lib/report.ts';
import { mib, MiB } from '../lib/rss-sampler.ts';
import { lineChart } from '../lib/svg-chart.ts';
import { DEFAULT_CONFIG_PATH } from './config.ts';
import { round } from './figures.ts';
import { runCapacity } from './run.ts';
import { seedDataset } from './seed.ts';

/** The target: after the warm-up, memory within this share of its level then. */
const FLAT_PERCENT = 5;

export interface MemorySample {
  /** Seconds since the load started. */
  t: number;
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  handles: number;
  eventLoopP99Ms: number;
  sockets: number;
}

/** One reading of a gateway's /metrics as a memory sample. */
async function readMemory(base: string, t: number): Promise<MemorySample> {
  const s = await scrape(base);
  const read = (name: string) => mib(metric(s, name));
  return {
    t: round(t, 1),
    rssMiB: read('im_process_resident_memory_bytes'),
    heapUsedMiB: read('im_nodejs_heap_size_used_bytes'),
    heapTotalMiB: read('im_nodejs_heap_size_total_bytes'),
    externalMiB: read('im_nodejs_external_memory_bytes'),
    // Servers before this gauge existed report none.
    arrayBuffersMiB: s.has('im_nodejs_array_buffers_bytes') ? read('im_nodejs_array_buffers_bytes') : NaN,
    handles: metric(s, 'im_nodejs_active_handles_total'),
    eventLoopP99Ms: round(metric(s, 'im_nodejs_eventloop_lag_p99_seconds') * 1000, 1),
    sockets: metric(s, 'im_gateway_sockets'),
  };
}

type Figure = 'rssMiB' | 'heapUsedMiB' | 'externalMiB' | 'arrayBuffersMiB' | 'handles';

export interface MemoryChange {
  /**
   * The least-squares line through the span's per-minute values (the heap's
   * troughs, the others' means) at its start and at its end, and its change:
   * V8 grows and shrinks its heap by tens of MiB every few minutes, which a
   * comparison of a few minutes at each end would read as a trend.
   */
  warm: number;
  end: number;
  changePercent: number;
  slopePerHour: number;
  /** Means of the span's first and last five per-minute values, for a look at the ends themselves. */
  firstFiveMinutes: number;
  lastFiveMinutes: number;
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * Writing a heap snapshot takes memory of its own (about 180 MiB for a
 * 150 MiB heap) that the C allocator keeps in the process afterwards: RSS
 * steps up once and stays. The level after the warm-up is read once that
 * step is over: from this long after the early snapshot.
 */
export const SNAPSHOT_SETTLE_SECONDS = 120;

/** The stretch a run is judged on: from `from` (s) to `to` (s, exclusive). */
export interface JudgedSpan {
  from: number;
  to: number;
}

/**
 * Per-minute values of a figure over the span: the heap's lowest reading of
 * each minute (its sawtooth's trough, close to what survives a GC: a mean
 * would follow the garbage waiting for the next one), the mean of the others.
 */
function perMinute(samples: MemorySample[], figure: Figure, span: JudgedSpan): Array<[number, number]> {
  const minutes = new Map<number, number[]>();
  for (const s of samples) {
    if (s.t < span.from || s.t >= span.to || !Number.isFinite(s[figure])) continue;
    const m = Math.floor((s.t - span.from) / 60);
    const values = minutes.get(m) ?? [];
    values.push(s[figure]);
    minutes.set(m, values);
  }
  return [...minutes.entries()]
    .filter(([, values]) => values.length >= 3)
    .map(([m, values]): [number, number] => [m, figure === 'heapUsedMiB' ? Math.min(...values) : mean(values)]);
}

/** How one figure moved over the judged span (see MemoryChange). */
export function memoryChange(samples: MemorySample[], figure: Figure, span: JudgedSpan): MemoryChange {
  const points = perMinute(samples, figure, span);
  if (points.length < 4)
    return { warm: NaN, end: NaN, changePercent: NaN, slopePerHour: NaN, firstFiveMinutes: NaN, lastFiveMinutes: NaN };
  const xs = points.map(([m]) => m);
  const ys = points.map(([, v]) => v);
  const mx = mean(xs);
  const my = mean(ys);
  const sxx = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0) / sxx;
  const at = (m: number) => my + slope * (m - mx);
  const warm = at(xs[0]!);
  const end = at(xs.at(-1)!);
  return {
    warm: round(warm, 1),
    end: round(end, 1),
    changePercent: round(((end - warm) / warm) * 100, 1),
    slopePerHour: round(slope * 60, 1),
    firstFiveMinutes: round(mean(ys.slice(0, 5)), 1),
    lastFiveMinutes: round(mean(ys.slice(-5)), 1),
  };
}

const FIGURES: Figure[] = ['rssMiB', 'heapUsedMiB', 'externalMiB', 'arrayBuffersMiB', 'handles'];

/** Every figure's change over the span, and whether RSS and heap stayed within FLAT_PERCENT. */
export function judge(samples: MemorySample[], span: JudgedSpan) {
  const changes = Object.fromEntries(FIGURES.map((f) => [f, memoryChange(samples, f, span)])) as Record<
    Figure,
    MemoryChange
  >;
  const flat = (['rssMiB', 'heapUsedMiB'] as const).every((f) => Math.abs(changes[f].changePercent) <= FLAT_PERCENT);
  return { changes, flat };
}

function printJudgement(changes: Record<Figure, MemoryChange>): void {
  process.stdout.write(
    table(
      FIGURES.map((f) => ({
        figure: f,
        'line at start': changes[f].warm,
        'line at end': changes[f].end,
        change: `${changes[f].changePercent}%`,
        'slope per hour': changes[f].slopePerHour,
        'first 5 min': changes[f].firstFiveMinutes,
        'last 5 min': changes[f].lastFiveMinutes,
      })),
    ),
  );
}

/**
 * `--rejudge FILE`: judges a soak result file again with this version's rule
 * (a run of an older load generator), and writes the judgement into it.
 */
function rejudge(file: string): void {
  const result = JSON.parse(readFileSync(file, 'utf8')) as {
    samples: MemorySample[];
    judged?: JudgedSpan;
    warmupMinutes: number;
    minutes: number;
    snapshots?: boolean;
    [key: string]: unknown;
  };
  const span = result.judged ?? {
    // Files from before the span was recorded: snapshots were always taken then.
    from: result.warmupMinutes * 60 + SNAPSHOT_SETTLE_SECONDS,
    to: result.minutes * 60 - 10,
  };
  const { changes, flat } = judge(result.samples, span);
  writeFileSync(
    file,
    `${JSON.stringify({ ...result, judged: span, changes, flat, flatPercent: FLAT_PERCENT }, null, 2)}\n`,
  );
  printJudgement(changes);
  process.stdout.write(
    `${flat ? 'flat' : 'NOT flat'} (judged ${round(span.from / 60, 1)}-${round(span.to / 60, 1)} min); written ${file}\n`,
  );
}

const USAGE =
  'usage: npm run bench -- soak [--users 150] [--minutes 60] [--warmup-minutes 10] [--sample-seconds 5] ' +
  '[--dataset-users 3000] [--dataset-groups 100] [--dataset-messages 20000] [--seed 1] [--processes P] ' +
  '[--snapshots on|off] [--keep-snapshots DIR] [--server-env NAME=VALUE,...] [--server-root DIR] [--store embedded|memory] [--out FILE]\n' +
  '       npm run bench -- soak --rejudge FILE (judge a result file again with this version)\n';

/** `npm run bench -- soak ...` */
export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    users: { type: 'string' },
    minutes: { type: 'string' },
    'warmup-minutes': { type: 'string' },
    'sample-seconds': { type: 'string' },
    'dataset-users': { type: 'string' },
    'dataset-groups': { type: 'string' },
    'dataset-messages': { type: 'string' },
    seed: { type: 'string' },
    processes: { type: 'string' },
    'keep-snapshots': { type: 'string' },
    snapshots: { type: 'string' },
    rejudge: { type: 'string' },
    'server-env': { type: 'string' },
    'server-root': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.rejudge) return rejudge(resolve(values.rejudge));
  if (values.cluster) {
    process.stderr.write('soak: the single instance only (the cluster has no one process to follow)\n');
    process.exit(2);
  }
  const users = intOption('users', values.users, 150);
  const minutes = intOption('minutes', values.minutes, 60);
  const warmupMinutes =
    values['warmup-minutes'] === '0' ? 0 : intOption('warmup-minutes', values['warmup-minutes'], 10);
  const withSnapshots = values.snapshots !== 'off';
  const sampleSeconds = intOption('sample-seconds', values['sample-seconds'], 5);
  if (values.snapshots !== undefined && values.snapshots !== 'on' && values.snapshots !== 'off') {
    process.stderr.write(`--snapshots must be on or off\n${USAGE}`);
    process.exit(2);
  }
  if (warmupMinutes + 5 > minutes) {
    process.stderr.write(`--minutes must leave at least 5 minutes after the warm-up\n${USAGE}`);
    process.exit(2);
  }
  // Settings for the server, e.g. smaller cache bounds so that a run reaches them in its warm-up.
  const serverEnv: Record<string, string> = {};
  for (const pair of (values['server-env'] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) {
      process.stderr.write(`--server-env takes NAME=VALUE,... (got ${JSON.stringify(pair)})\n`);
      process.exit(2);
    }
    serverEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const durationSeconds = minutes * 60;
  const warmupSeconds = warmupMinutes * 60;
  // Judged from the warm-up's end (and the early snapshot's settling) to the late snapshot.
  const lateAt = durationSeconds - 2 * sampleSeconds;
  const span: JudgedSpan = {
    from: warmupSeconds + (values.snapshots === 'off' ? 0 : SNAPSHOT_SETTLE_SECONDS),
    to: lateAt,
  };

  // The default store: mongo-java-server with its H2 file, as the single instance starts it.
  const store = chosenStoreOfRun();
  const external = process.env.MONGO_URL;
  const work = mkdtempSync(join(tmpdir(), 'im-soak-'));
  const snapshotsDir = join(work, 'snapshots');
  const mongo: MongoServerHandle = await startMongo({
    url: external,
    preferInMemory: true,
    ...(store === 'embedded' && !external ? { dataFile: join(work, 'database.mv.db') } : {}),
  });
  const mongoUrl = withDatabase(mongo.url, external ? `soak_${Date.now()}` : 'soak');
  const bars = phasedProgress();
  const samples: MemorySample[] = [];
  const snapshots: Array<{ at: number; file: string }> = [];
  let sampling: NodeJS.Timeout | undefined;
  let snapshotting: Promise<void> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];
  try {
    const dataset = await seedDataset({
      mongoUrl,
      users: intOption('dataset-users', values['dataset-users'], 3000),
      groups: intOption('dataset-groups', values['dataset-groups'], 100),
      messages: intOption('dataset-messages', values['dataset-messages'], 20_000),
      seed: intOption('seed', values.seed, 1),
      onProgress: bars.onProgress,
    });
    bars.stop();
    process.stdout.write(
      `soak: ${users} users for ${minutes} min on the ${external ? 'given' : store} store; ${withSnapshots ? `heap snapshots at ${warmupMinutes} min and near the end` : 'no heap snapshots'}; judged from ${round(span.from / 60, 1)} to ${round(span.to / 60, 1)} min\n`,
    );
    let started = 0;
    const result = await runCapacity({
      mode: 'bounded',
      cluster: false,
      mongoUrl,
      dataset,
      users,
      durationSeconds,
      sampleSeconds,
      configPath: DEFAULT_CONFIG_PATH,
      mongoKind: mongo.kind,
      ...(mongo.process?.pid ? { databasePid: mongo.process.pid } : {}),
      ...(values.processes ? { processes: intOption('processes', values.processes, 2) } : {}),
      ...(values['server-root'] ? { serverRoot: resolve(values['server-root']) } : {}),
      serverEnv: {
        ...serverEnv,
        ...(withSnapshots ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotsDir}` } : {}),
      },
      onServerStarted: ([base]) => {
        started = performance.now();
        const port = new URL(base!).port;
        const pid = findNodePid(`PORT=${port}`);
        if (pid === undefined) throw new Error(`soak: no server process with PORT=${port}`);
        sampling = setInterval(() => {
          const t = (performance.now() - started) / 1000;
          readMemory(base!, t).then(
            (s) => samples.push(s),
            () => undefined,
          );
        }, sampleSeconds * 1000);
        // Early: when the warm-up ends; late: two samples before the load stops.
        const snapshotAt = (seconds: number) =>
          timers.push(
            setTimeout(() => {
              snapshotting = snapshotting.then(async () => {
                const [file] = await takeHeapSnapshots([pid], snapshotsDir);
                if (file) snapshots.push({ at: round((performance.now() - started) / 1000), file });
              });
            }, seconds * 1000),
          );
        if (withSnapshots) {
          snapshotAt(Math.max(warmupSeconds, sampleSeconds));
          snapshotAt(lateAt);
        }
      },
      onSample: (s) => {
        if (Math.round(s.t) % 60 < sampleSeconds) {
          const m = samples.at(-1);
          process.stdout.write(
            `  ${String(Math.round(s.t / 60)).padStart(3)} min  ${s.connectedUsers} on  ${s.requestsPerSecond} req/s  p99 ${s.requestP99Ms} ms  errors ${s.errors}` +
              (m
                ? `  RSS ${m.rssMiB} MiB  heap ${m.heapUsedMiB} MiB  external ${m.externalMiB} MiB  handles ${m.handles}`
                : '') +
              '\n',
          );
        }
      },
    });
    clearInterval(sampling);
    await snapshotting;

    let summaries: HeapSummary[] = [];
    if (snapshots.length === 2) summaries = snapshots.map((s) => summarizeHeapSnapshot(s.file));
    if (values['keep-snapshots']) {
      mkdirSync(values['keep-snapshots'], { recursive: true });
      for (const s of snapshots) {
        renameSync(s.file, join(values['keep-snapshots'], `soak-${Math.round(s.at / 60)}min.heapsnapshot`));
      }
    }
    const { changes, flat } = judge(samples, span);
    const growth =
      summaries.length === 2
        ? {
            earlyAtSeconds: snapshots[0]!.at,
            lateAtSeconds: snapshots[1]!.at,
            earlyMiB: round(summaries[0]!.totalBytes / MiB, 1),
            lateMiB: round(summaries[1]!.totalBytes / MiB, 1),
            groups: heapGrowth(summaries[0]!, summaries[1]!).map((g) => ({
              ...g,
              growthKiB: round((g.bytesAfter - g.bytesBefore) / 1024, 1),
            })),
            collections: collectionGrowth(summaries[0]!, summaries[1]!).slice(0, 15),
          }
        : undefined;

    const name = 'soak';
    const json = values.out ? resolve(values.out) : join(RESULTS_DIR, `${name}.json`);
    mkdirSync(dirname(json), { recursive: true });
    const chartFile = json.replace(/\.json$/, '') + '.svg';
    const minutesOf = (pick: (s: MemorySample) => number) =>
      samples.filter((s) => Number.isFinite(pick(s))).map((s): [number, number] => [round(s.t / 60, 2), pick(s)]);
    writeFileSync(
      chartFile,
      lineChart({
        title: `Server memory, ${users} users for ${minutes} min (${result.commit})`,
        xLabel: 'minutes',
        yLabel: 'MiB',
        series: [
          { name: 'RSS', points: minutesOf((s) => s.rssMiB) },
          { name: 'heap total', points: minutesOf((s) => s.heapTotalMiB) },
          { name: 'heap used', points: minutesOf((s) => s.heapUsedMiB) },
          { name: 'external', points: minutesOf((s) => s.externalMiB) },
          { name: 'array buffers', points: minutesOf((s) => s.arrayBuffersMiB) },
        ],
      }),
    );
    const out = {
      benchmark: name,
      commit: result.commit,
      store: external ? 'external' : store,
      users,
      minutes,
      warmupMinutes,
      judged: span,
      snapshots: withSnapshots,
      serverEnv,
      flat,
      flatPercent: FLAT_PERCENT,
      changes,
      load: {
        requestsPerSecond: result.summary.requestsPerSecond,
        requestP99Ms: result.summary.requestP99Ms,
        errorRate: result.summary.errorRate,
        lostMessages: result.summary.lostMessages,
        missedMessages: result.missedMessages,
        requestCounts: result.requestCounts,
      },
      heapGrowth: growth,
      machine: result.machine,
      samples,
    };
    writeFileSync(json, `${JSON.stringify(out, null, 2)}\n`);
    printJudgement(changes);
    if (growth) {
      process.stdout.write(
        `heap ${growth.earlyMiB} MiB at ${growth.earlyAtSeconds} s -> ${growth.lateMiB} MiB at ${growth.lateAtSeconds} s; grew most:\n`,
      );
      process.stdout.write(
        table(
          growth.groups.slice(0, 15).map((g) => ({
            what: g.name,
            count: `${g.countBefore} -> ${g.countAfter}`,
            'grew KiB': g.growthKiB,
          })),
        ),
      );
      if (growth.collections.length > 0)
        process.stdout.write(
          table(
            growth.collections.map((c) => ({
              collection: `${c.kind} held by ${c.heldBy}`,
              'table KiB': `${round(c.bytesBefore / 1024, 1)} -> ${round(c.bytesAfter / 1024, 1)}`,
            })),
          ),
        );
    }
    process.stdout.write(
      `${flat ? 'flat' : 'NOT flat'}: RSS and heap after the warm-up ${flat ? 'stayed' : 'did not stay'} within ${FLAT_PERCENT}%\n` +
        `written ${json}\nwritten ${chartFile}\n`,
    );
  } finally {
    bars.stop();
    clearInterval(sampling);
    for (const t of timers) clearTimeout(t);
    await mongo.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  run(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}
