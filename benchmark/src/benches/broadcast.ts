// Tailchat's broadcast method: N members of one group online through real
// socket.io clients in several client processes; one member sends; the time
// from send until every member has the message. Rounds per N; loss counted.
// `--arms gateway,bare` adds the reference: the same number of clients, in the
// same client processes, joined to one room of a bare socket.io server (its
// own process, the gateway's socket.io options, no auth or database), with
// the arms taking turns round by round in the same run.
import type { Message } from '@im/protocol';
import { EVENTS } from '@im/sdk';
import { AccountPool, BenchGroup } from '../lib/api.ts';
import { benchArgs, intListOption, intOption, serverRootOf } from '../lib/args.ts';
import { BareSocketServer } from '../lib/bare-socketio.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, metric, scrape, type Scrape } from '../lib/metrics.ts';
import { findNodePid, processCpuMicros } from '../lib/node-pid.ts';
import { progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { connectSender, connectSocket, sendMessage, type ClientSocket } from '../lib/client-socket.ts';
import { median, percentile, round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';
import { now, stamp } from '../swarm/protocol.ts';
import { Swarm } from '../swarm/swarm.ts';

/** gateway: the platform; bare: bare socket.io (JSON parser); bare-msgpack: bare socket.io, msgpack parser at both ends. */
const ARMS = ['gateway', 'bare', 'bare-msgpack'] as const;
export type Arm = (typeof ARMS)[number];

export interface BroadcastRow {
  arm: Arm;
  members: number;
  rounds: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest member of the slowest round: when everyone had it. */
  p100Ms: number;
  /** Per round, when the last member had it. */
  roundP100Ms: number[];
  /**
   * Median over rounds of the server's first-to-last socket write: the gateway's
   * `im_gateway_fanout_seconds` (slowest gateway per round), the bare server's room emit.
   */
  serverFanoutMs: number;
  /** Median over rounds of the server's CPU (all gateway processes, or the bare server) per round. */
  serverCpuMsPerRound: number;
  /** Median over rounds of the client processes' CPU per round (they receive and decode every delivery). */
  clientCpuMsPerRound: number;
  /** Member receipts missing after the wait, over all rounds. */
  lost: number;
  duplicates: number;
}

/** Gateway over a bare arm, per N: below 1, the gateway is faster. */
export interface BroadcastRatio {
  members: number;
  versus: Arm;
  p50: number;
  p99: number;
  medianRoundP100: number;
  p100: number;
  serverCpu: number;
  clientCpu: number;
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

function armsOption(raw: string | undefined): Arm[] {
  const arms = (raw ?? 'gateway').split(',').map((a) => a.trim());
  const unknown = arms.filter((a) => !(ARMS as readonly string[]).includes(a));
  if (unknown.length > 0 || arms.length === 0 || new Set(arms).size !== arms.length) {
    process.stderr.write(`--arms takes distinct names of ${ARMS.join(', ')} (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return arms as Arm[];
}

/** One arm's server, sender and the clients it has online so far. */
interface ArmState {
  arm: Arm;
  urls: string[];
  sender: ClientSocket;
  converseId: string;
  online: number;
  /** What a round cost the server, and how long its fan-out took, measured around `send`. */
  measure: (send: () => Promise<void>) => Promise<{ serverCpuMs: number; fanoutMs: number }>;
}

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : NaN);

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    members: { type: 'string' },
    rounds: { type: 'string' },
    processes: { type: 'string' },
    arms: { type: 'string' },
    /** Another checkout's server (a worktree of an earlier commit, with its own node_modules): before/after. */
    'server-root': { type: 'string' },
  });
  const sizes = intListOption('members', values.members, [1000, 2000, 5000, 10_000, 15_000]).sort((a, b) => a - b);
  const rounds = intOption('rounds', values.rounds, 10);
  const processes = intOption('processes', values.processes, Math.max(2, Math.ceil(sizes.at(-1)! / 5000)));
  const arms = armsOption(values.arms);
  const load = new LoadCpu();
  // Bare arms alone need no platform: their clients' tokens are never checked.
  const target = arms.includes('gateway')
    ? await startTarget({
        cluster: values.cluster,
        ...serverRootOf(values['server-root']),
      })
    : undefined;
  const bares = new Map<Arm, BareSocketServer>();
  const swarm = new Swarm(processes);
  const states: ArmState[] = [];
  const rows: BroadcastRow[] = [];
  try {
    for (const arm of arms)
      if (arm !== 'gateway') bares.set(arm, new BareSocketServer(arm.endsWith('msgpack') ? 'msgpack' : 'json'));
    let accounts: Array<{ token: string }> = Array.from({ length: sizes.at(-1)! }, () => ({ token: 'bare' }));
    let gateway: { sender: ClientSocket; converseId: string; template: Message } | undefined;
    if (target) {
      const base = target.gateways[0]!;
      const pool = new AccountPool(base);
      const [owner] = await pool.ensure(1);
      const group = await BenchGroup.create(base, owner!, 'broadcast');
      // Everyone joins before anyone connects: a join is announced to the
      // group's online members, which would make the setup quadratic. The group
      // then has max(N) members, N of them online; delivery only sees the online.
      const members = await pool.ensure(sizes.at(-1)!);
      await group.join(members);
      accounts = members;
      const sender = await connectSender(base, owner!.token);
      // A first message through the gateway: the bare servers send its fields, so both put the same bytes on the wire.
      const template = await sendMessage(sender, group.converseId, stamp('warm-up'), `w:${Date.now()}`);
      gateway = { sender, converseId: group.converseId, template };
    }
    for (const arm of arms) {
      const bare = bares.get(arm);
      if (!bare) {
        const gateways = target!.gateways;
        // The gateways' CPU from /proc, read around the round only: a /metrics read (which walks
        // every socket's handle) is the benchmark's cost, not the broadcast's, and is made after it.
        const pids = gateways.map((base) => findNodePid(`PORT=${new URL(base).port}`));
        const cpuMicros = pids.every((pid) => pid !== undefined)
          ? () => Promise.resolve(pids.reduce((s, pid) => s + processCpuMicros(pid), 0))
          : async () => (await Promise.all(gateways.map(scrape))).reduce((s, a) => s + cpuSeconds(a) * 1e6, 0);
        let last = await Promise.all(gateways.map(scrape));
        states.push({
          arm,
          urls: gateways,
          sender: gateway!.sender,
          converseId: gateway!.converseId,
          online: 0,
          measure: async (send) => {
            const cpuBefore = await cpuMicros();
            await send();
            const cpuAfter = await cpuMicros();
            const after = await Promise.all(gateways.map(scrape));
            // Only this arm's sends are message.created events: the histogram moved by this round alone.
            const fanout = fanoutMs(last, after);
            last = after;
            return { serverCpuMs: (cpuAfter - cpuBefore) / 1000, fanoutMs: fanout };
          },
        });
        continue;
      }
      const url = await bare.base;
      if (gateway) await bare.useTemplate(gateway.template);
      const parser = arm.endsWith('msgpack') ? 'msgpack' : 'json';
      states.push({
        arm,
        urls: [url],
        sender: await connectSocket(url, 'bare', { parser }),
        converseId: gateway?.converseId ?? '0'.repeat(24),
        online: 0,
        measure: async (send) => {
          const before = await bare.stats();
          await send();
          const after = await bare.stats();
          return { serverCpuMs: (after.cpuMicros - before.cpuMicros) / 1000, fanoutMs: after.fanoutMs.at(-1) ?? 0 };
        },
      });
    }
    for (const n of sizes) {
      let failed = false;
      for (const state of states) {
        // Everyone but the sender is in the swarm; members from smaller N stay connected.
        const fresh = accounts.slice(1 + state.online, n);
        const connected = await swarm.connect(`${state.arm}: connecting ${fresh.length} sockets`, fresh, state.urls, {
          concurrency: 100,
          set: state.arm,
          ...(state.arm.endsWith('msgpack') ? { parser: 'msgpack' as const } : {}),
          // Like a real client: the first sync's answer means the socket is in all its rooms.
          ...(state.arm === 'gateway' ? { sync: {} } : {}),
        });
        state.online += connected.ok;
        if (connected.failed > 0) {
          process.stderr.write(
            `${state.arm}: ${connected.failed} sockets failed to connect: ${connected.errors.join('; ')}\n`,
          );
          failed = true;
        }
      }
      if (failed) break;
      await new Promise((r) => setTimeout(r, 1000));
      const all = new Map(states.map((s) => [s.arm, [] as number[]]));
      const armRows = new Map(
        states.map((s) => [
          s.arm,
          {
            arm: s.arm,
            members: n,
            rounds,
            p50Ms: 0,
            p99Ms: 0,
            p100Ms: 0,
            roundP100Ms: [],
            serverFanoutMs: 0,
            serverCpuMsPerRound: 0,
            clientCpuMsPerRound: 0,
            lost: 0,
            duplicates: 0,
          } as BroadcastRow,
        ]),
      );
      const perRound = new Map(
        states.map((s) => [s.arm, { fanout: [] as number[], server: [] as number[], client: [] as number[] }]),
      );
      const bar = progress(`${n} members, rounds`, rounds * states.length);
      for (let r = 0; r < rounds; r += 1) {
        // The arms take turns, and which goes first alternates, so neither always follows the other.
        const order = r % 2 === 0 ? states : [...states].reverse();
        for (const state of order) {
          const row = armRows.get(state.arm)!;
          const key = `b:${state.arm}:${n}:${r}`;
          let receipt = { sockets: 0, received: 0, duplicates: 0, times: [] as number[] };
          let t0 = 0;
          const clientBefore = (await swarm.stats()).cpuMicros;
          const cost = await state.measure(async () => {
            t0 = now();
            await sendMessage(state.sender, state.converseId, stamp(key), key);
            receipt = await swarm.collect(key, 20_000, state.arm);
          });
          const clientAfter = (await swarm.stats()).cpuMicros;
          const latencies = receipt.times.map((t) => t - t0).sort((a, b) => a - b);
          all.get(state.arm)!.push(...latencies);
          row.roundP100Ms.push(round(latencies.at(-1) ?? NaN));
          row.lost += receipt.sockets - receipt.received;
          row.duplicates += receipt.duplicates;
          const costs = perRound.get(state.arm)!;
          costs.fanout.push(cost.fanoutMs);
          costs.server.push(cost.serverCpuMs);
          costs.client.push((clientAfter - clientBefore) / 1000);
          bar.increment();
          await new Promise((res) => setTimeout(res, 250));
        }
      }
      bar.stop();
      for (const state of states) {
        const row = armRows.get(state.arm)!;
        const sorted = all.get(state.arm)!.sort((a, b) => a - b);
        const costs = perRound.get(state.arm)!;
        row.p50Ms = round(percentile(sorted, 50));
        row.p99Ms = round(percentile(sorted, 99));
        row.p100Ms = round(percentile(sorted, 100));
        row.serverFanoutMs = round(median(costs.fanout), 2);
        row.serverCpuMsPerRound = round(median(costs.server));
        row.clientCpuMsPerRound = round(median(costs.client));
        rows.push(row);
        process.stdout.write(
          `${state.arm}, ${n} members: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, p100 ${row.p100Ms} ms (per round median ${round(median(row.roundP100Ms))} ms), server fan-out ${row.serverFanoutMs} ms, CPU per round server ${row.serverCpuMsPerRound} ms / clients ${row.clientCpuMsPerRound} ms, lost ${row.lost}\n`,
        );
      }
    }
    for (const s of states) s.sender.disconnect();
  } finally {
    const stats = await swarm.stats().catch(() => undefined);
    load.addChildren(await swarm.close().catch(() => 0), processes);
    if (stats)
      process.stdout.write(`client processes: ${processes}, ${Math.round(stats.rssBytes / 2 ** 20)} MB RSS in all\n`);
    for (const bare of bares.values()) bare.close();
    await target?.stop();
  }
  const ratios: BroadcastRatio[] = [];
  for (const g of rows.filter((r) => r.arm === 'gateway')) {
    for (const b of rows.filter((r) => r.arm !== 'gateway' && r.members === g.members)) {
      ratios.push({
        members: g.members,
        versus: b.arm,
        p50: ratio(g.p50Ms, b.p50Ms),
        p99: ratio(g.p99Ms, b.p99Ms),
        medianRoundP100: ratio(median(g.roundP100Ms), median(b.roundP100Ms)),
        p100: ratio(g.p100Ms, b.p100Ms),
        serverCpu: ratio(g.serverCpuMsPerRound, b.serverCpuMsPerRound),
        clientCpu: ratio(g.clientCpuMsPerRound, b.clientCpuMsPerRound),
      });
    }
  }
  process.stdout.write(
    table(
      rows.map((r) => ({
        arm: r.arm,
        members: r.members,
        'p50 ms': r.p50Ms,
        'p99 ms': r.p99Ms,
        'p100 ms': r.p100Ms,
        'median round p100': round(median(r.roundP100Ms)),
        'fan-out ms': r.serverFanoutMs,
        'server CPU ms': r.serverCpuMsPerRound,
        'client CPU ms': r.clientCpuMsPerRound,
        lost: r.lost,
        dup: r.duplicates,
      })),
    ),
  );
  if (ratios.length > 0) {
    process.stdout.write('gateway / bare:\n');
    process.stdout.write(
      table(
        ratios.map((q) => ({
          members: q.members,
          versus: q.versus,
          p50: q.p50,
          p99: q.p99,
          'median round p100': q.medianRoundP100,
          p100: q.p100,
          'server CPU': q.serverCpu,
          'client CPU': q.clientCpu,
        })),
      ),
    );
  }
  const series = (arm: Arm, name: string, pick: (r: BroadcastRow) => number) => ({
    name: arms.length > 1 ? `${arm}: ${name}` : name,
    points: rows.filter((r) => r.arm === arm).map((r) => [r.members, pick(r)] as [number, number]),
  });
  writeResult(
    {
      benchmark: 'broadcast',
      target: target?.mode ?? 'none',
      mongo: target?.mongoKind ?? 'none',
      clientProcesses: processes,
      arms,
      rows,
      ratios,
    },
    {
      out: values.out,
      load,
      chart: {
        title: `Broadcast to one group (${target?.mode === 'cluster' ? 'cluster: 2 gateways' : 'single instance'})`,
        xLabel: 'members online',
        yLabel: 'send to delivery (ms)',
        series: arms.flatMap((arm) => [
          series(arm, 'p50', (r) => r.p50Ms),
          series(arm, 'p99', (r) => r.p99Ms),
          series(arm, 'p100 (all members)', (r) => r.p100Ms),
          series(arm, arm === 'gateway' ? 'server fan-out' : 'room emit', (r) => r.serverFanoutMs),
        ]),
      },
    },
  );
}
