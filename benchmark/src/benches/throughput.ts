// Many senders into many converses over socket.io; every message persisted
// and delivered to every member's socket. Two mixes: 10-member converses
// (write-bound) and 100-member groups (fan-out-bound). The offered rate
// ramps up until p99 send-to-deliver passes the limit.
import { AccountPool, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intListOption, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, scrape } from '../lib/metrics.ts';
import { forEachLimited } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';
import { Swarm } from '../swarm/swarm.ts';

export interface ThroughputStep {
  offeredPerSecond: number;
  /** Sends the server acknowledged (persisted) and socket deliveries counted in the step. */
  acked: number;
  deliveries: number;
  persistedPerSecond: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Acks that failed or timed out. */
  failed: number;
  /** Deliveries missing: acked messages times members, minus what the sockets got. */
  lost: number;
  /** Send to the sender's ack (persisted). */
  ackP50Ms: number;
  ackP99Ms: number;
  /** Gateway process CPU, share of one core. */
  serverCpu: number;
  held: boolean;
}

export interface MixResult {
  members: number;
  converses: number;
  users: number;
  steps: ThroughputStep[];
  /** The last step that held every threshold, or null. */
  sustained: ThroughputStep | null;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runMix(
  target: Target,
  pool: AccountPool,
  members: number,
  users: number,
  options: {
    startRate: number;
    factor: number;
    maxSteps: number;
    stepMs: number;
    p99LimitMs: number;
    processes: number;
  },
  load: LoadCpu,
): Promise<MixResult> {
  const base = target.gateways[0]!;
  const converses = Math.max(1, Math.floor(users / members));
  const accounts = (await pool.ensure(converses * members)).slice(0, converses * members);
  // One group per converse, joined while nobody is online.
  const groups: Array<{ converseId: string; members: Account[] }> = [];
  await forEachLimited(
    Array.from({ length: converses }, (_, g) => g),
    8,
    `${converses} groups of ${members}`,
    async (g) => {
      const list = accounts.slice(g * members, (g + 1) * members);
      const group = await BenchGroup.create(base, list[0]!, `throughput ${members} ${g}`);
      await group.join(list, 8, true);
      groups[g] = { converseId: group.converseId, members: list };
    },
  );
  const swarm = new Swarm(options.processes);
  const steps: ThroughputStep[] = [];
  try {
    const ordered = groups.flatMap((g) => g.members);
    const connected = await swarm.connect(`connecting ${ordered.length} members`, ordered, target.gateways, {
      concurrency: 100,
      // Like a real client: the first sync's answer means the socket is in all its rooms.
      sync: {},
    });
    if (connected.failed > 0) throw new Error(`${connected.failed} sockets failed: ${connected.errors.join('; ')}`);
    // Every member sends into its own group's converse.
    const senders = groups.flatMap((g, gi) =>
      g.members.map((_, mi) => ({ socket: gi * members + mi, converseId: g.converseId })),
    );
    let rate = options.startRate;
    for (let step = 0; step < options.maxSteps; step += 1) {
      await swarm.latencies(); // drop anything left from the last step
      const before = await Promise.all(target.gateways.map(scrape));
      const started = performance.now();
      const sent = await swarm.send(senders, rate, options.stepMs);
      await pause(1000); // stragglers
      const seconds = (performance.now() - started) / 1000;
      const after = await Promise.all(target.gateways.map(scrape));
      const got = await swarm.latencies();
      const sorted = got.latencyMs.sort((a, b) => a - b);
      const ackSorted = sent.ackMs.sort((a, b) => a - b);
      const cpu = after.reduce((s, a, i) => s + cpuSeconds(a) - cpuSeconds(before[i]!), 0);
      const sendSeconds = options.stepMs / 1000;
      const row: ThroughputStep = {
        offeredPerSecond: Math.round(rate),
        acked: sent.acked,
        deliveries: got.deliveries,
        persistedPerSecond: Math.round(sent.acked / sendSeconds),
        deliveriesPerSecond: Math.round(got.deliveries / sendSeconds),
        p50Ms: round(percentile(sorted, 50)),
        p99Ms: round(percentile(sorted, 99)),
        ackP50Ms: round(percentile(ackSorted, 50)),
        ackP99Ms: round(percentile(ackSorted, 99)),
        failed: sent.failed,
        lost: Math.max(0, sent.acked * members - got.deliveries),
        serverCpu: round(cpu / seconds, 2),
        held: false,
      };
      row.held =
        row.p99Ms <= options.p99LimitMs &&
        row.failed <= sent.sent * 0.001 &&
        row.lost === 0 &&
        row.persistedPerSecond >= rate * 0.9;
      steps.push(row);
      process.stdout.write(
        `  ${members}-member mix, offered ${row.offeredPerSecond}/s: persisted ${row.persistedPerSecond}/s, delivered ${row.deliveriesPerSecond}/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms (ack p50 ${row.ackP50Ms}, p99 ${row.ackP99Ms}), server CPU ${row.serverCpu}, failed ${row.failed}, lost ${row.lost}${row.held ? '' : '  <- past the limit'}\n`,
      );
      if (sent.errors.length > 0) process.stderr.write(`  errors: ${sent.errors.join('; ')}\n`);
      if (!row.held) {
        const stats = await swarm.stats();
        if (stats.connected < ordered.length)
          process.stderr.write(
            `  ${ordered.length - stats.connected} sockets dropped: ${JSON.stringify(stats.disconnects)}\n`,
          );
        break;
      }
      rate *= options.factor;
      await pause(1000);
    }
  } finally {
    load.addChildren(await swarm.close().catch(() => 0), options.processes);
  }
  const held = steps.filter((s) => s.held);
  return { members, converses, users: accounts.length, steps, sustained: held.at(-1) ?? null };
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    mixes: { type: 'string' },
    users: { type: 'string' },
    'step-seconds': { type: 'string' },
    'p99-limit': { type: 'string' },
    processes: { type: 'string' },
    'start-rate': { type: 'string' },
    steps: { type: 'string' },
  });
  const maxSteps = intOption('steps', values.steps, 15);
  const mixes = intListOption('mixes', values.mixes, [10, 100]);
  const users = intOption('users', values.users, 1000);
  const stepMs = intOption('step-seconds', values['step-seconds'], 10) * 1000;
  const p99LimitMs = intOption('p99-limit', values['p99-limit'], 200);
  const processes = intOption('processes', values.processes, 2);
  const load = new LoadCpu();
  const target = await startTarget({ cluster: values.cluster });
  const results: MixResult[] = [];
  try {
    const pool = new AccountPool(target.gateways[0]!);
    for (const members of mixes) {
      process.stdout.write(`${members}-member converses:\n`);
      // Fan-out-bound mixes start lower: each message is `members` deliveries.
      const startRate = intOption('start-rate', values['start-rate'], members >= 100 ? 100 : 400);
      results.push(
        await runMix(
          target,
          pool,
          members,
          users,
          {
            startRate,
            factor: 1.3,
            maxSteps,
            stepMs,
            p99LimitMs,
            processes,
          },
          load,
        ),
      );
    }
  } finally {
    await target.stop();
  }
  process.stdout.write(
    table(
      results.map((r) => ({
        mix: `${r.members} members x ${r.converses}`,
        'persisted/s': r.sustained?.persistedPerSecond ?? 0,
        'deliveries/s': r.sustained?.deliveriesPerSecond ?? 0,
        'p50 ms': r.sustained?.p50Ms ?? '-',
        'p99 ms': r.sustained?.p99Ms ?? '-',
        'server CPU': r.sustained?.serverCpu ?? '-',
      })),
    ),
  );
  writeResult(
    {
      benchmark: 'throughput',
      target: target.mode,
      mongo: target.mongoKind,
      p99LimitMs,
      stepSeconds: stepMs / 1000,
      results,
    },
    {
      out: values.out,
      load,
      chart: {
        title: `Throughput ramp (${target.mode})`,
        xLabel: 'messages persisted per second',
        yLabel: 'p99 send to delivery (ms)',
        series: results.map((r) => ({
          name: `${r.members}-member converses`,
          points: r.steps.map((s) => [s.persistedPerSecond, s.p99Ms]),
        })),
        reference: { y: p99LimitMs, label: `limit ${p99LimitMs} ms` },
      },
    },
  );
}
