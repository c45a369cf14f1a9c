// Idle authenticated sockets held by one gateway: memory per socket and the
// CPU the gateway spends at rest (heartbeats) while holding them.
import { AccountPool, BenchGroup } from '../lib/api.ts';
import { benchArgs, intOption, serverRootOf } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, heapUsedBytes, rssBytes, scrape, type Scrape } from '../lib/metrics.ts';
import { progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';
import { Swarm } from '../swarm/swarm.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { takeHeapSnapshots } from '../lib/heap-snapshot.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNodePid } from '../lib/node-pid.ts';

/**
 * A heap snapshot starts with a full GC: asking the gateways for one (SIGUSR2)
 * before reading their heap gives the memory sockets really retain, not
 * whatever garbage a young generation holds at that moment.
 */
async function collectGarbage(pids: number[], dir: string, keepAs?: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  await takeHeapSnapshots(pids, dir, keepAs);
  rmSync(dir, { recursive: true, force: true });
}

const sum = (scrapes: Scrape[], f: (s: Scrape) => number) => scrapes.reduce((t, s) => t + f(s), 0);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    sockets: { type: 'string' },
    'group-size': { type: 'string' },
    'rest-seconds': { type: 'string' },
    /** Keep the gateways' heap snapshots (empty, then holding the sockets) here, to see what a socket costs. */
    'keep-snapshots': { type: 'string' },
    processes: { type: 'string' },
    concurrency: { type: 'string' },
    /** Another checkout's server (a worktree of an earlier commit, with its own node_modules): before/after. */
    'server-root': { type: 'string' },
  });
  // Connecting is not what this measures: a gentle ramp, so presence announcements
  // to the small groups (one per connect) do not swamp the gateway meanwhile.
  const concurrency = intOption('concurrency', values.concurrency, 25);
  const sockets = intOption('sockets', values.sockets, 18_000);
  // 0: no groups. With the dev MongoDB stand-in (it scans for non-unique
  // indexes) the per-connect membership lookup is a collection scan, which
  // tens of thousands of group members turn into request timeouts.
  const groupSize = values['group-size'] === '0' ? 0 : intOption('group-size', values['group-size'], 100);
  const restSeconds = intOption('rest-seconds', values['rest-seconds'], 60);
  const processes = intOption('processes', values.processes, Math.max(2, Math.ceil(sockets / 6000)));
  const load = new LoadCpu();
  const keep = values['keep-snapshots'];
  const snapshots = mkdtempSync(join(tmpdir(), 'im-bench-heap-'));
  process.env.SERVER_NODE_OPTIONS = `${process.env.SERVER_NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`;
  const target = await startTarget({
    cluster: values.cluster,
    ...serverRootOf(values['server-root']),
  });
  const ports = target.gateways.map((g) => new URL(g).port);
  const pids = ports.map((port) => findNodePid(`PORT=${port}`)).filter((p) => p !== undefined);
  if (pids.length < ports.length)
    process.stderr.write('could not find the gateway processes: heap figures include garbage\n');
  const base = target.gateways[0]!;
  const swarm = new Swarm(processes);
  let result: Record<string, number> = {};
  try {
    const pool = new AccountPool(base);
    const accounts = await pool.ensure(sockets);
    // Each user in one group, like members of many small teams.
    const groups = groupSize === 0 ? 0 : Math.ceil(sockets / groupSize);
    const bar = progress(`${groups} groups of ${groupSize}`, groups);
    for (let g = 0; g < groups; g += 1) {
      const members = accounts.slice(g * groupSize, (g + 1) * groupSize);
      const group = await BenchGroup.create(base, members[0]!, `idle ${g}`);
      await group.join(members, 24, true);
      bar.increment();
    }
    bar.stop();
    await pause(3000);
    const emptyRss = sum(await Promise.all(target.gateways.map(scrape)), rssBytes);
    await collectGarbage(pids, snapshots, keep && join(keep, 'empty'));
    const empty = await Promise.all(target.gateways.map(scrape));
    const connected = await swarm.connect(`connecting ${sockets} sockets`, accounts, target.gateways, {
      concurrency,
      sync: {},
    });
    if (connected.failed > 0) process.stderr.write(`${connected.failed} failed: ${connected.errors.join('; ')}\n`);
    // Settle, then measure a quiet stretch: only heartbeats go over the sockets.
    await pause(10_000);
    const restStart = await Promise.all(target.gateways.map(scrape));
    const rest = progress(`at rest for ${restSeconds} s`, restSeconds);
    for (let s = 0; s < restSeconds; s += 1) {
      await pause(1000);
      rest.increment();
    }
    rest.stop();
    const restEnd = await Promise.all(target.gateways.map(scrape));
    await collectGarbage(pids, snapshots, keep && join(keep, 'connected'));
    const retained = await Promise.all(target.gateways.map(scrape));
    const swarmStats = await swarm.stats();
    const held = swarmStats.connected;
    if (held < connected.ok)
      process.stderr.write(`${connected.ok - held} sockets dropped: ${JSON.stringify(swarmStats.disconnects)}\n`);
    // RSS before the snapshots: writing one inflates it.
    const rssDelta = sum(restEnd, rssBytes) - emptyRss;
    const heapDelta = sum(retained, heapUsedBytes) - sum(empty, heapUsedBytes);
    const cpu = sum(restEnd, cpuSeconds) - sum(restStart, cpuSeconds);
    result = {
      sockets: connected.ok,
      heldAtEnd: held,
      failed: connected.failed,
      gateways: target.gateways.length,
      rssBeforeMB: round(emptyRss / 2 ** 20),
      rssAfterMB: round(sum(restEnd, rssBytes) / 2 ** 20),
      heapBeforeMB: round(sum(empty, heapUsedBytes) / 2 ** 20),
      heapAfterMB: round(sum(retained, heapUsedBytes) / 2 ** 20),
      bytesPerSocketRss: Math.round(rssDelta / Math.max(1, connected.ok)),
      bytesPerSocketHeap: Math.round(heapDelta / Math.max(1, connected.ok)),
      restSeconds,
      cpuAtRestPercent: round((cpu / restSeconds) * 100, 2),
    };
  } finally {
    load.addChildren(await swarm.close().catch(() => 0), processes);
    await target.stop();
    rmSync(snapshots, { recursive: true, force: true });
  }
  process.stdout.write(table([result]));
  process.stdout.write(
    `${result.sockets} sockets: ${round((result.bytesPerSocketRss ?? 0) / 1024, 1)} KB RSS (${round((result.bytesPerSocketHeap ?? 0) / 1024, 1)} KB heap) per socket, ${result.cpuAtRestPercent}% of a core at rest\n`,
  );
  writeResult(
    { benchmark: 'connections', target: target.mode, mongo: target.mongoKind, groupSize, ...result },
    { out: values.out, load },
  );
}
