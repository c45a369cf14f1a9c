// N members of one group connect at once, as after a gateway restart: the
// time until every socket is authenticated, in all its rooms, and has run
// `sync` for the group's panel. Server CPU per join shows whether a join's
// cost grows with the group.
import { AccountPool, BenchGroup } from '../lib/api.ts';
import { benchArgs, intListOption, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, scrape } from '../lib/metrics.ts';
import { table, writeResult } from '../lib/report.ts';
import { connectSender, sendMessage } from '../lib/client-socket.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';
import { now } from '../swarm/protocol.ts';
import { Swarm } from '../swarm/swarm.ts';

interface StormRow {
  members: number;
  connected: number;
  failed: number;
  /** From the first connect to the last socket done with `sync`. */
  totalSeconds: number;
  joinsPerSecond: number;
  /** Per socket, from the storm's start to its sync answer. */
  p50Ms: number;
  p99Ms: number;
  /** Gateway CPU (all gateways) spent per join. */
  serverCpuMsPerJoin: number;
}

/** Some history, so each sync has messages to answer with. */
async function seedHistory(base: string, token: string, converseId: string): Promise<void> {
  const sender = await connectSender(base, token);
  for (let i = 0; i < 20; i += 1)
    await sendMessage(sender, converseId, `before the storm ${i}`, `s:${converseId}:${i}`);
  sender.disconnect();
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    members: { type: 'string' },
    processes: { type: 'string' },
    concurrency: { type: 'string' },
  });
  const sizes = intListOption('members', values.members, [1000, 5000, 10_000]).sort((a, b) => a - b);
  const processes = intOption('processes', values.processes, Math.max(2, Math.ceil(sizes.at(-1)! / 5000)));
  // In flight per client process: "at once", within what a listen backlog takes.
  const concurrency = intOption('concurrency', values.concurrency, 500);
  const load = new LoadCpu();
  const target = await startTarget({ cluster: values.cluster });
  const base = target.gateways[0]!;
  const rows: StormRow[] = [];
  try {
    const pool = new AccountPool(base);
    const [owner] = await pool.ensure(1);
    for (const n of sizes) {
      // A group of exactly N members each time, joined while nobody is online.
      const accounts = await pool.ensure(n);
      const group = await BenchGroup.create(base, owner!, `join storm ${n}`);
      await group.join(accounts);
      await seedHistory(base, owner!.token, group.converseId);
      const swarm = new Swarm(processes);
      try {
        const before = await Promise.all(target.gateways.map(scrape));
        const started = now();
        const result = await swarm.connect(`${n} members at once`, accounts, target.gateways, {
          concurrency,
          sync: { [group.converseId]: 0 },
        });
        const after = await Promise.all(target.gateways.map(scrape));
        const ready = result.readyAt.map((t) => t - started).sort((a, b) => a - b);
        const totalSeconds = (ready.at(-1) ?? 0) / 1000;
        const cpu = after.reduce((s, a, i) => s + cpuSeconds(a) - cpuSeconds(before[i]!), 0);
        rows.push({
          members: n,
          connected: result.ok,
          failed: result.failed,
          totalSeconds: round(totalSeconds, 2),
          joinsPerSecond: Math.round(result.ok / totalSeconds),
          p50Ms: round(percentile(ready, 50)),
          p99Ms: round(percentile(ready, 99)),
          serverCpuMsPerJoin: round((cpu * 1000) / Math.max(1, result.ok), 2),
        });
        if (result.failed > 0) process.stderr.write(`${result.failed} failed: ${result.errors.join('; ')}\n`);
        process.stdout.write(
          `${n} members: all in ${round(totalSeconds, 2)} s (${rows.at(-1)!.joinsPerSecond}/s), ${rows.at(-1)!.serverCpuMsPerJoin} ms server CPU per join\n`,
        );
      } finally {
        load.addChildren(await swarm.close(), processes);
      }
      // Let the gateways notice the disconnects before the next storm.
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await target.stop();
  }
  process.stdout.write(table(rows.map((r) => ({ ...r }))));
  writeResult(
    {
      benchmark: 'join-storm',
      target: target.mode,
      mongo: target.mongoKind,
      clientProcesses: processes,
      concurrency,
      rows,
    },
    {
      out: values.out,
      load,
      chart: {
        title: `Join storm (${target.mode})`,
        xLabel: 'members connecting at once',
        yLabel: 'seconds until all synced',
        series: [{ name: 'all members synced', points: rows.map((r) => [r.members, r.totalSeconds]) }],
        reference: { y: 20, label: 'target for 10k: 20 s' },
      },
    },
  );
}
