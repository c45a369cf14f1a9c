// `npm run bench -- capacity`: how many people can this deployment carry?
// Simulated users (agent-user.ts) in client processes act like people with
// the web client open; the coordinator samples them and every node, and
// either holds a fixed count (bounded) or adds users while every threshold
// holds and removes them when one breaks (unbounded, Mattermost's method).
// The CLI starts its own MongoDB (or uses MONGO_URL), seeds the dataset,
// runs, writes the JSON and the Markdown report with its charts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startMongo, type MongoServerHandle } from '@im/dev-servers';
import { withDatabase } from '@im/testkit';
import { benchArgs, intOption } from '../lib/args.ts';
import { machineFacts } from '../lib/machine.ts';
import { findNodePid } from '../lib/node-pid.ts';
import { phasedProgress } from '../lib/progress.ts';
import { RESULTS_DIR, table } from '../lib/report.ts';
import { startTarget } from '../lib/target.ts';
import { now } from '../swarm/protocol.ts';
import type { AgentDataset } from './agent-protocol.ts';
import { AgentPool } from './agents.ts';
import { DEFAULT_CONFIG_PATH, loadCapacityConfig } from './config.ts';
import { coordinate, settleFor, type Plan } from './coordinator.ts';
import { Figures, round } from './figures.ts';
import { writeCapacityReport } from './report.ts';
import { seedDataset } from './seed.ts';
import { ServerSampler } from './server-metrics.ts';
import type { CapacityOptions, CapacityResult, CapacitySample, DatasetManifest } from './types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** After the load stops: time for live deliveries under way to arrive before the final check. */
const QUIET_MS = 3_000;

function toAgentDataset(d: DatasetManifest): AgentDataset {
  return {
    usernamePrefix: d.usernamePrefix,
    password: d.password,
    users: d.users,
    groups: d.groupList.map((g) => ({ memberIndexes: g.memberIndexes, converseIds: g.converseIds })),
  };
}

/** The commit of the checkout whose server runs (short, `+changes` when its tree differs). */
function commitOf(root: string | undefined): string {
  if (!root) return String(machineFacts().commit);
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** One capacity run against a deployment it starts on the given (seeded) database, and stops. */
export async function runCapacity(options: CapacityOptions): Promise<CapacityResult> {
  const configPath = resolve(options.configPath ?? DEFAULT_CONFIG_PATH);
  const config = loadCapacityConfig(configPath);
  const thresholds = { ...config.thresholds, ...options.thresholds };
  const windowSeconds = options.windowSeconds ?? config.windowSeconds;
  const sampleSeconds = options.sampleSeconds ?? config.sampleSeconds;
  const processes = options.processes ?? config.clientProcesses;
  const stepUsers = options.stepUsers ?? options.users;
  const stepSeconds =
    options.stepSeconds ??
    Math.max(
      60,
      settleFor({ settleSeconds: config.settleSeconds, sampleSeconds, config }, stepUsers) + 2 * sampleSeconds,
    );
  const dataset = options.dataset;
  const problems: string[] = [];
  if (!(options.users >= 1)) problems.push('users must be at least 1');
  if (options.users > dataset.users) problems.push(`users (${options.users}) exceeds the dataset's ${dataset.users}`);
  if (!(options.durationSeconds >= sampleSeconds))
    problems.push(`durationSeconds must be at least one sample (${sampleSeconds} s)`);
  if (options.mode === 'unbounded') {
    if (!(stepUsers >= 1)) problems.push('stepUsers must be at least 1');
    const settle = settleFor({ settleSeconds: config.settleSeconds, sampleSeconds, config }, stepUsers);
    if (!(stepSeconds >= settle + sampleSeconds))
      problems.push(
        `stepSeconds (${stepSeconds}) must leave at least one sample (${sampleSeconds} s) after a step's settling time (${settle} s: settleSeconds, or ${stepUsers} logins at startRatePerSecond and a sample)`,
      );
  }
  if (problems.length > 0) throw new Error(`capacity: ${problems.join('; ')}`);

  const started = performance.now();
  const startCpu = process.cpuUsage();
  const dataDir = mkdtempSync(join(tmpdir(), 'im-capacity-data-'));
  const target = await startTarget({
    cluster: options.cluster,
    mongoUrl: options.mongoUrl,
    ...(options.mongoKind ? { mongoKind: options.mongoKind } : {}),
    ...(options.serverRoot ? { serverRoot: options.serverRoot } : {}),
    // Uploads go to a directory of the run's own.
    env: { ...options.serverEnv, DATA_DIR: dataDir },
  });
  let agents: AgentPool | undefined;
  try {
    // The cluster's service nodes serve no /metrics: their CPU comes from /proc.
    const serviceNodes = options.cluster
      ? ['services-1', 'services-2']
          .map((name) => ({ name, pid: findNodePid(`NODE_ID=${name}`) }))
          .filter((n): n is { name: string; pid: number } => n.pid !== undefined)
      : [];
    const sampler = new ServerSampler(target.gateways, serviceNodes, options.databasePid);
    options.onServerStarted?.(target.gateways);
    agents = new AgentPool(processes, target.gateways);
    await agents.init(toAgentDataset(dataset), config, randomBytes(3).toString('hex'), now());
    // The run's settings after defaults: what the coordinator follows and what the report records.
    const settings = {
      users: options.users,
      durationSeconds: options.durationSeconds,
      stepUsers,
      stepSeconds,
      windowSeconds,
      sampleSeconds,
      settleSeconds: config.settleSeconds,
    };
    const plan: Plan = { mode: options.mode, maxUsers: dataset.users, thresholds, config, ...settings };
    const timeline = await coordinate(plan, agents, sampler, options.onSample, (m) => process.stdout.write(`  ${m}\n`));
    await agents.quiesce();
    await sleep(QUIET_MS);
    const end = await agents.finish();
    const cpu = process.cpuUsage(startCpu);
    const wall = (performance.now() - started) / 1000;
    const loadCpuSeconds = (cpu.user + cpu.system + agents.cpuMicros) / 1e6;
    const machine = machineFacts();

    const span = timeline.summary.map((i) => timeline.samples[i]!);
    const figures = Figures.merge(timeline.summary.map((i) => timeline.figures[i]!));
    const whole = Figures.merge(timeline.figures);
    const spanSeconds = span.length === 0 ? NaN : span.at(-1)!.t - (timeline.samples[timeline.summary[0]! - 1]?.t ?? 0);
    const mean = (pick: (s: CapacitySample) => number) => {
      const values = span.map(pick).filter(Number.isFinite);
      return values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length;
    };
    const missedMessages = whole.missed + end.missedAtEnd;
    return {
      mode: options.mode,
      deployment: target.mode,
      supportedUsers: timeline.supportedUsers,
      thresholds,
      summary: {
        users: round(mean((s) => s.users)),
        connectedUsers: round(mean((s) => s.connectedUsers)),
        ...figures.clientFigures(spanSeconds),
        lostMessages: end.lost,
        cpuCores: round(
          mean((s) => s.cpuCores),
          2,
        ),
        heapMiB: round(mean((s) => s.heapMiB)),
        rssMiB: round(mean((s) => s.rssMiB)),
        // The worst sample's p99: a mean of p99s would hide the stalls.
        eventLoopDelayMs: round(Math.max(...span.map((s) => s.eventLoopDelayMs).filter(Number.isFinite))),
        sockets: round(mean((s) => s.sockets)),
        dbCpuCores: round(
          mean((s) => s.dbCpuCores),
          2,
        ),
        loadCpuCores: round(
          mean((s) => s.loadCpuCores),
          2,
        ),
      },
      samples: timeline.samples,
      breaks: timeline.breaks,
      machine,
      commit: commitOf(options.serverRoot),
      converged: timeline.converged,
      decision: timeline.decision,
      summaryFrom: round(timeline.samples[timeline.summary[0]! - 1]?.t ?? 0),
      summaryTo: round(span.at(-1)?.t ?? 0),
      checks: [
        ...timeline.checks.map((c) => ({ ...c, value: round(c.value, c.threshold === 'errorRate' ? 6 : 1) })),
        { threshold: 'lostMessages', value: end.lost, limit: 0, held: end.lost === 0 },
      ],
      missedMessages,
      lostSamples: end.lostSamples,
      errorSamples: whole.errorSamples,
      requestsByKind: figures.kinds(),
      requestCounts: Object.fromEntries(
        Object.entries(whole.kinds()).map(([kind, k]) => [kind, { count: k.count, errors: k.errors }]),
      ),
      actions: Object.fromEntries([...whole.actions].sort(([a], [b]) => a.localeCompare(b))),
      levels: timeline.levels,
      options: {
        ...settings,
        processes,
        configPath,
        ...(options.serverRoot ? { serverRoot: options.serverRoot } : {}),
      },
      dataset: {
        users: dataset.users,
        groups: dataset.groups,
        messages: dataset.messages,
        seed: dataset.seed,
        dms: dataset.dmList.length,
      },
      config: config as unknown as Record<string, unknown>,
      mongoKind: target.mongoKind,
      seconds: round(wall),
      loadGenerator: {
        processes: processes + 1,
        cpuSeconds: round(loadCpuSeconds),
        shareOfOneCore: round(loadCpuSeconds / wall, 2),
        shareOfMachine: round(loadCpuSeconds / wall / machine.cores, 2),
      },
    };
  } finally {
    agents?.close();
    await target.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the CLI ----

/** A URL without a database name gets `capacity` (where `npm run bench -- seed` puts it too). */
function withDefaultDatabase(url: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(url);
  if (!match) return url;
  const [, base, path, query] = match;
  return path && path !== '/' ? url : `${base}/capacity${query ?? ''}`;
}

const USAGE =
  'usage: npm run bench -- capacity [--mode bounded|unbounded] [--users N] [--duration S] [--step-users N] ' +
  '[--step-seconds S] [--window-seconds S] [--dataset-users N] [--dataset-groups G] [--dataset-messages M] [--seed S] ' +
  '[--config FILE] [--processes P] [--server-root DIR] [--cluster] [--out FILE]\n';

/** The options of a capacity run's command line, shared with `compare`. */
export const CAPACITY_ARGS = {
  users: { type: 'string' },
  duration: { type: 'string' },
  'step-users': { type: 'string' },
  'step-seconds': { type: 'string' },
  'window-seconds': { type: 'string' },
  'dataset-users': { type: 'string' },
  'dataset-groups': { type: 'string' },
  'dataset-messages': { type: 'string' },
  seed: { type: 'string' },
  config: { type: 'string' },
  processes: { type: 'string' },
} as const;

/** `npm run bench -- capacity ...` */
export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    mode: { type: 'string' },
    ...CAPACITY_ARGS,
    'server-root': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const mode = values.mode ?? 'unbounded';
  if (mode !== 'bounded' && mode !== 'unbounded') {
    process.stderr.write(`--mode must be bounded or unbounded (got ${JSON.stringify(mode)})\n${USAGE}`);
    process.exit(2);
  }
  const bounded = mode === 'bounded';
  const users = intOption('users', values.users, bounded ? 200 : 100);
  const durationSeconds = intOption('duration', values.duration, bounded ? 300 : 1800);
  const stepUsers = intOption('step-users', values['step-users'], 100);
  const stepSeconds = intOption('step-seconds', values['step-seconds'], 60);
  const windowSeconds = values['window-seconds'] ? intOption('window-seconds', values['window-seconds'], 0) : undefined;
  const processes = values.processes ? intOption('processes', values.processes, 0) : undefined;
  const datasetUsers = intOption('dataset-users', values['dataset-users'], 3000);
  const datasetGroups = intOption('dataset-groups', values['dataset-groups'], 100);
  const datasetMessages =
    values['dataset-messages'] === '0' ? 0 : intOption('dataset-messages', values['dataset-messages'], 100_000);
  const seed = values.seed === '0' ? 0 : intOption('seed', values.seed, 1);
  const configPath = values.config ? resolve(values.config) : DEFAULT_CONFIG_PATH;
  // A bad config file fails here, before anything starts.
  loadCapacityConfig(configPath);

  const external = process.env.MONGO_URL;
  const mongo: MongoServerHandle = await startMongo({ url: external, preferInMemory: !external });
  const mongoUrl = external ? withDefaultDatabase(external) : withDatabase(mongo.url, 'capacity');
  const bars = phasedProgress();
  let result: CapacityResult;
  try {
    const dataset = await seedDataset({
      mongoUrl,
      users: datasetUsers,
      groups: datasetGroups,
      messages: datasetMessages,
      seed,
      onProgress: bars.onProgress,
    });
    bars.stop();
    process.stdout.write(
      `dataset: ${dataset.users} users, ${dataset.groups} groups, ${dataset.messages} messages, ${dataset.dmList.length} DMs (seed ${dataset.seed})\n` +
        `${mode} run against the ${values.cluster ? 'local cluster' : 'single instance'}: ` +
        (bounded
          ? `${users} users for ${durationSeconds} s\n`
          : `from ${users} users, +${stepUsers} every ${stepSeconds} s while the thresholds hold, at most ${durationSeconds} s\n`),
    );
    result = await runCapacity({
      mode,
      cluster: values.cluster,
      mongoUrl,
      dataset,
      users,
      durationSeconds,
      stepUsers,
      stepSeconds,
      configPath,
      mongoKind: mongo.kind,
      ...(mongo.kind === 'mongo-java-server' && mongo.process?.pid ? { databasePid: mongo.process.pid } : {}),
      ...(windowSeconds ? { windowSeconds } : {}),
      ...(processes ? { processes } : {}),
      ...(values['server-root'] ? { serverRoot: resolve(values['server-root']) } : {}),
      onSample: (s) =>
        process.stdout.write(
          `  ${String(Math.round(s.t)).padStart(5)} s  ${String(s.users).padStart(5)} users (${s.connectedUsers} on)` +
            `  ${s.requestsPerSecond} req/s  avg ${s.requestAvgMs} ms  p99 ${s.requestP99Ms} ms` +
            `  store p99 ${s.storeP99Ms} ms  broadcast p99 ${s.broadcastP99Ms} ms  errors ${s.errors}` +
            `  missed ${s.missedMessages}  server CPU ${s.cpuCores}  loop p99 ${s.eventLoopDelayMs} ms\n`,
        ),
    });
  } finally {
    bars.stop();
    await mongo.stop();
  }

  const name = `capacity-${mode}${values.cluster ? '-cluster' : ''}`;
  const json = values.out ? resolve(values.out) : join(RESULTS_DIR, `${name}.json`);
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify({ benchmark: name, ...result }, null, 2)}\n`);
  const report = writeCapacityReport(result, json.replace(/\.json$/, '') + '.md');
  const s = result.summary;
  process.stdout.write(
    table([
      {
        'supported users': result.supportedUsers,
        'req/s': s.requestsPerSecond,
        'avg ms': s.requestAvgMs,
        'p99 ms': s.requestP99Ms,
        'store p99': s.storeP99Ms,
        'broadcast p99': s.broadcastP99Ms,
        'error rate': `${round(s.errorRate * 100, 3)}%`,
        lost: s.lostMessages,
        'server CPU': s.cpuCores,
      },
    ]),
  );
  process.stdout.write(`${result.decision}\n`);
  if (result.errorSamples.length > 0) process.stdout.write(`errors, for example: ${result.errorSamples.join(' | ')}\n`);
  process.stdout.write(
    `load generator: ${result.loadGenerator.processes} processes, ${Math.round(result.loadGenerator.shareOfOneCore * 100)}% of one core\n`,
  );
  process.stdout.write(`written ${json}\nwritten ${report.markdown} (+ ${report.charts.length} charts)\n`);
}

if (import.meta.main) {
  run(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`capacity: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}
