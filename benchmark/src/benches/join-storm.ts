// N members of one group connect at once, as after a gateway restart: the
// time until every socket is authenticated, in all its rooms, and has run
// `sync` for the group's panel. Server CPU per join shows whether a join's
// cost grows with the group. Each socket sends its `sync` as soon as it is
// connected, as a real client does, without waiting for it before the next
// connect; the moment every socket is connected (their rooms may still be
// loading), a member already online sends a message: the time until every
// member has it live, and how many never do, is the first broadcast after
// the storm. On the single instance the server is restarted before each
// storm (`--restart`, on by default), so every session, room and message it
// reads comes cold from its database, as after a restart of every gateway.
import { AccountPool, BenchGroup } from '../lib/api.ts';
import { benchArgs, intListOption, intOption, serverRootOf } from '../lib/args.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, scrape } from '../lib/metrics.ts';
import { table, writeResult } from '../lib/report.ts';
import { connectSender, sendMessage, type ClientSocket } from '../lib/client-socket.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget } from '../lib/target.ts';
import { now, stamp } from '../swarm/protocol.ts';
import { Swarm } from '../swarm/swarm.ts';

/** The message sent the moment every socket is connected. */
interface FirstBroadcast {
  /** From the storm's start to the send. */
  sentAfterSeconds: number;
  /** Sends it took (a send refused under the storm's load is retried with the same clientMsgId, as a client does). */
  sendAttempts: number;
  /** Why the last send failed, if none was accepted. */
  sendError?: string;
  /** Storm sockets that should get it (those connected). */
  members: number;
  received: number;
  lost: number;
  duplicates: number;
  /** From the send until each member had it live (`message:new`). */
  p50Ms: number;
  p99Ms: number;
  p100Ms: number;
}

interface StormRow {
  members: number;
  /** Rooms a storm socket is in on average: its user, session and group rooms, the panel's, and private panels it sees. */
  roomsPerSocket: number;
  connected: number;
  failed: number;
  /** From the first connect to the last socket connected (authenticated; its rooms may still be loading). */
  connectedSeconds: number;
  /** From the first connect to the last socket done with `sync` (so in all its rooms). */
  totalSeconds: number;
  /** Sockets whose sync failed or was not answered in time. */
  syncFailed: number;
  joinsPerSecond: number;
  /** Per socket, from the storm's start to its sync answer. */
  p50Ms: number;
  p99Ms: number;
  /** Gateway CPU (all gateways) spent per join. */
  serverCpuMsPerJoin: number;
  firstBroadcast: FirstBroadcast;
}

/** Sends until accepted, at most `tries` times a second apart; the server dedupes by clientMsgId. */
async function sendUntilAccepted(
  sender: ClientSocket,
  converseId: string,
  content: string,
  key: string,
  tries = 5,
): Promise<{ attempts: number; error?: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sendMessage(sender, converseId, content, key);
      return { attempts: attempt };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      if (attempt >= tries) return { attempts: attempt, error };
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
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
    'source-addresses': { type: 'string' },
    /** Another checkout's server (a worktree of an earlier commit, with its own node_modules): before/after. */
    'server-root': { type: 'string' },
    /** Restart the single instance before each storm (cold sessions and rooms): `on` (default) or `off`. */
    restart: { type: 'string', default: 'on' },
    /** Private panels in each group, seen by half its members (a role): more rooms per socket for them. */
    'private-panels': { type: 'string' },
  });
  if (values.restart !== 'on' && values.restart !== 'off') {
    process.stderr.write(`--restart must be on or off (got ${JSON.stringify(values.restart)})\n`);
    process.exit(2);
  }
  const sizes = intListOption('members', values.members, [1000, 5000, 10_000]).sort((a, b) => a - b);
  const processes = intOption('processes', values.processes, Math.max(2, Math.ceil(sizes.at(-1)! / 5000)));
  // In flight per client process: "at once", within what a listen backlog takes.
  const concurrency = intOption('concurrency', values.concurrency, 500);
  // Loopback has ~28k ephemeral ports per source address: 127.0.0.1..K spread the sockets (1: see sourceAddress).
  const sourceAddresses = intOption('source-addresses', values['source-addresses'], 1);
  const privatePanels = intOption('private-panels', values['private-panels'], 0);
  const load = new LoadCpu();
  const target = await startTarget({
    cluster: values.cluster,
    ...serverRootOf(values['server-root']),
  });
  const base = target.gateways[0]!;
  const restart = values.restart === 'on' ? target.restart : undefined;
  const rows: StormRow[] = [];
  try {
    const pool = new AccountPool(base);
    const [owner] = await pool.ensure(1);
    for (const n of sizes) {
      // A group of exactly N members each time, joined while nobody is online.
      const accounts = await pool.ensure(n);
      const group = await BenchGroup.create(base, owner!, `join storm ${n}`);
      await group.join(accounts);
      // Every other member sees the private panels: their sockets join K more rooms.
      if (privatePanels > 0)
        await group.privatePanels(
          privatePanels,
          accounts.filter((_, i) => i % 2 === 1),
        );
      await seedHistory(base, owner!.token, group.converseId);
      if (restart) {
        process.stdout.write(`restarting the server: the storm meets cold sessions and rooms\n`);
        await restart();
      }
      const swarm = new Swarm(processes, { sourceAddresses });
      // The sender's socket is online before the storm (its rooms are loaded): the storm is everyone else's.
      const sender = await connectSender(base, owner!.token);
      try {
        const before = await Promise.all(target.gateways.map(scrape));
        const started = now();
        const result = await swarm.connect(`${n} members at once`, accounts, target.gateways, {
          concurrency,
          sync: { [group.converseId]: 0 },
          syncInBackground: true,
        });
        // Every socket is connected: the message goes now, while rooms may still be loading.
        const key = `b:storm:${n}`;
        const sentAt = now();
        const sending = sendUntilAccepted(sender, group.converseId, stamp(key), key);
        // Receipts are kept from the first arrival on: asking for them after the send misses none.
        const [receipt, synced, sent] = await Promise.all([swarm.collect(key, 90_000), swarm.synced(180_000), sending]);
        const after = await Promise.all(target.gateways.map(scrape));
        const connectedAt = result.readyAt.map((t) => t - started).sort((a, b) => a - b);
        const ready = synced.syncedAt.map((t) => t - started).sort((a, b) => a - b);
        const delivered = receipt.times.map((t) => t - sentAt).sort((a, b) => a - b);
        const totalSeconds = (ready.at(-1) ?? 0) / 1000;
        const cpu = after.reduce((s, a, i) => s + cpuSeconds(a) - cpuSeconds(before[i]!), 0);
        const firstBroadcast: FirstBroadcast = {
          sentAfterSeconds: round((sentAt - started) / 1000, 2),
          sendAttempts: sent.attempts,
          ...(sent.error ? { sendError: sent.error } : {}),
          members: receipt.sockets,
          received: receipt.received,
          lost: receipt.sockets - receipt.received,
          duplicates: receipt.duplicates,
          p50Ms: round(percentile(delivered, 50)),
          p99Ms: round(percentile(delivered, 99)),
          p100Ms: round(percentile(delivered, 100)),
        };
        rows.push({
          members: n,
          roomsPerSocket: round(4 + privatePanels * (Math.floor(n / 2) / n), 2),
          connected: result.ok,
          failed: result.failed,
          connectedSeconds: round((connectedAt.at(-1) ?? 0) / 1000, 2),
          totalSeconds: round(totalSeconds, 2),
          syncFailed: synced.failed,
          joinsPerSecond: Math.round(synced.ok / totalSeconds),
          p50Ms: round(percentile(ready, 50)),
          p99Ms: round(percentile(ready, 99)),
          serverCpuMsPerJoin: round((cpu * 1000) / Math.max(1, result.ok), 2),
          firstBroadcast,
        });
        if (result.failed > 0) process.stderr.write(`${result.failed} failed: ${result.errors.join('; ')}\n`);
        if (sent.error) process.stderr.write(`the first broadcast was never accepted: ${sent.error}\n`);
        if (synced.failed > 0) process.stderr.write(`${synced.failed} syncs failed: ${synced.errors.join('; ')}\n`);
        const row = rows.at(-1)!;
        process.stdout.write(
          `${n} members: all connected in ${row.connectedSeconds} s, all in their rooms and synced in ${row.totalSeconds} s (${row.joinsPerSecond}/s), ${row.serverCpuMsPerJoin} ms server CPU per join\n` +
            `  first broadcast, sent at ${firstBroadcast.sentAfterSeconds} s: every member in ${firstBroadcast.p100Ms} ms (p50 ${firstBroadcast.p50Ms} ms), ${firstBroadcast.received}/${firstBroadcast.members} received, lost ${firstBroadcast.lost}, ${sent.attempts} send(s)\n`,
        );
      } finally {
        sender.disconnect();
        load.addChildren(await swarm.close(), processes);
      }
      // Let the gateways notice the disconnects before the next storm.
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await target.stop();
  }
  process.stdout.write(
    table(
      rows.map(({ firstBroadcast: fb, ...r }) => ({
        ...r,
        'first msg p100 ms': fb.p100Ms,
        'first msg lost': fb.lost,
      })),
    ),
  );
  writeResult(
    {
      benchmark: 'join-storm',
      target: target.mode,
      mongo: target.mongoKind,
      restartedBeforeEachStorm: restart !== undefined,
      clientProcesses: processes,
      concurrency,
      sourceAddresses,
      privatePanels,
      ...(values['server-root'] ? { serverRoot: values['server-root'] } : {}),
      rows,
    },
    {
      out: values.out,
      load,
      chart: {
        title: `Join storm (${target.mode}, ${target.mongoKind}${restart ? ', restarted before each storm' : ''})`,
        xLabel: 'members connecting at once',
        yLabel: 'seconds until all synced',
        series: [
          { name: 'all members synced', points: rows.map((r) => [r.members, r.totalSeconds]) },
          { name: 'all members connected', points: rows.map((r) => [r.members, r.connectedSeconds]) },
          {
            name: 'first broadcast: sent + to every member',
            points: rows.map((r) => [r.members, r.firstBroadcast.sentAfterSeconds + r.firstBroadcast.p100Ms / 1000]),
          },
        ],
        reference: { y: 20, label: 'target for 10k: 20 s' },
      },
    },
  );
}
