// Tailchat's broadcast method: N members of one group online through real
// socket.io clients in several client processes; one member sends; the time
// from send until every member has the message. Rounds per N; loss counted.
import { EVENTS } from '@im/sdk';
import { AccountPool, BenchGroup } from '../lib/api.ts';
import { benchArgs, intListOption, intOption } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { metric, scrape, type Scrape } from '../lib/metrics.ts';
import { progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { connectSender, sendMessage } from '../lib/client-socket.ts';
import { median, percentile, round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';
import { now, stamp } from '../swarm/protocol.ts';
import { Swarm } from '../swarm/swarm.ts';

export interface BroadcastRow {
  members: number;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest member of the slowest round: when everyone had it. */
  p100Ms: number;
  /** Per round, when the last member had it. */
  roundP100Ms: number[];
  /** Median over rounds of each gateway's first-to-last socket write (slowest gateway per round). */
  serverFanoutMs: number;
  /** Member receipts missing after the wait, over all rounds. */
  lost: number;
  duplicates: number;
}

const fanoutEvent = `event="${EVENTS.messageCreated}"`;

/** The slowest gateway's fan-out time for the one message sent between two scrapes. */
function fanoutMs(before: Scrape[], after: Scrape[]): number {
  let worst = 0;
  after.forEach((a, i) => {
    const b = before[i]!;
    const count =
      metric(a, 'im_gateway_fanout_seconds_count', fanoutEvent) -
      metric(b, 'im_gateway_fanout_seconds_count', fanoutEvent);
    const sum =
      metric(a, 'im_gateway_fanout_seconds_sum', fanoutEvent) - metric(b, 'im_gateway_fanout_seconds_sum', fanoutEvent);
    if (count > 0) worst = Math.max(worst, (sum / count) * 1000);
  });
  return worst;
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    members: { type: 'string' },
    rounds: { type: 'string' },
    processes: { type: 'string' },
  });
  const sizes = intListOption('members', values.members, [1000, 2000, 5000, 10_000, 15_000]).sort((a, b) => a - b);
  const rounds = intOption('rounds', values.rounds, 10);
  const processes = intOption('processes', values.processes, Math.max(2, Math.ceil(sizes.at(-1)! / 5000)));
  const load = new LoadCpu();
  const target = await startTarget({ cluster: values.cluster });
  const base = target.gateways[0]!;
  const swarm = new Swarm(processes);
  const rows: BroadcastRow[] = [];
  try {
    const pool = new AccountPool(base);
    const [owner] = await pool.ensure(1);
    const group = await BenchGroup.create(base, owner!, 'broadcast');
    // Everyone joins before anyone connects: a join is announced to the
    // group's online members, which would make the setup quadratic. The group
    // then has max(N) members, N of them online; delivery only sees the online.
    await group.join(await pool.ensure(sizes.at(-1)!));
    const sender = await connectSender(base, owner!.token);
    for (const n of sizes) {
      const accounts = pool.accounts.slice(0, n);
      // Everyone but the sender is in the swarm; members from smaller N stay connected.
      const fresh = accounts.slice(1 + swarm.size);
      const connected = await swarm.connect(`connecting ${fresh.length} sockets`, fresh, target.gateways, {
        concurrency: 100,
        // Like a real client: the first sync's answer means the socket is in all its rooms.
        sync: {},
      });
      if (connected.failed > 0) {
        process.stderr.write(`${connected.failed} sockets failed to connect: ${connected.errors.join('; ')}\n`);
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
      const all: number[] = [];
      const row: BroadcastRow = {
        members: n,
        rounds,
        p50Ms: 0,
        p99Ms: 0,
        p100Ms: 0,
        roundP100Ms: [],
        serverFanoutMs: 0,
        lost: 0,
        duplicates: 0,
      };
      const fanouts: number[] = [];
      const bar = progress(`${n} members, rounds`, rounds);
      for (let r = 0; r < rounds; r += 1) {
        const before = await Promise.all(target.gateways.map(scrape));
        const key = `b:${n}:${r}`;
        const t0 = now();
        await sendMessage(sender, group.converseId, stamp(key), key);
        const receipt = await swarm.collect(key, 20_000);
        const after = await Promise.all(target.gateways.map(scrape));
        const latencies = receipt.times.map((t) => t - t0).sort((a, b) => a - b);
        all.push(...latencies);
        row.roundP100Ms.push(round(latencies.at(-1) ?? NaN));
        row.lost += receipt.sockets - receipt.received;
        row.duplicates += receipt.duplicates;
        fanouts.push(fanoutMs(before, after));
        bar.increment();
        await new Promise((res) => setTimeout(res, 250));
      }
      bar.stop();
      all.sort((a, b) => a - b);
      row.p50Ms = round(percentile(all, 50));
      row.p99Ms = round(percentile(all, 99));
      row.p100Ms = round(percentile(all, 100));
      row.serverFanoutMs = round(median(fanouts), 2);
      rows.push(row);
      process.stdout.write(
        `${n} members: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, p100 ${row.p100Ms} ms (per round median ${round(median(row.roundP100Ms))} ms), server fan-out ${row.serverFanoutMs} ms, lost ${row.lost}\n`,
      );
    }
    sender.disconnect();
  } finally {
    const stats = await swarm.stats().catch(() => undefined);
    load.addChildren(await swarm.close().catch(() => 0), processes);
    if (stats)
      process.stdout.write(`client processes: ${processes}, ${Math.round(stats.rssBytes / 2 ** 20)} MB RSS in all\n`);
    await target.stop();
  }
  process.stdout.write(
    table(
      rows.map((r) => ({
        members: r.members,
        'p50 ms': r.p50Ms,
        'p99 ms': r.p99Ms,
        'p100 ms': r.p100Ms,
        'median round p100': round(median(r.roundP100Ms)),
        'fan-out ms': r.serverFanoutMs,
        lost: r.lost,
      })),
    ),
  );
  writeResult(
    { benchmark: 'broadcast', target: target.mode, mongo: target.mongoKind, clientProcesses: processes, rows },
    {
      out: values.out,
      load,
      chart: {
        title: `Broadcast to one group (${target.mode === 'cluster' ? 'cluster: 2 gateways' : 'single instance'})`,
        xLabel: 'members online',
        yLabel: 'send to delivery (ms)',
        series: [
          { name: 'p50', points: rows.map((r) => [r.members, r.p50Ms]) },
          { name: 'p99', points: rows.map((r) => [r.members, r.p99Ms]) },
          { name: 'p100 (all members)', points: rows.map((r) => [r.members, r.p100Ms]) },
          { name: 'server fan-out', points: rows.map((r) => [r.members, r.serverFanoutMs]) },
        ],
      },
    },
  );
}
