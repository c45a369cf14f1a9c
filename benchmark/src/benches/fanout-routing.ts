// Room-routed fan-out against broadcast-to-all, as gateways are added. Each
// step runs G gateways, each the home of the same number of groups whose
// members connect to one or two gateways (so the load per gateway stays the
// same as G grows); the groups' owners send messages over HTTP. Per gateway,
// the room events it received from the cluster (its /metrics) are set against
// the events its sockets needed (one per message of every group with a member
// on it), and NATS's monitoring endpoint says what the bus carried. Each
// FANOUT_ROUTING mode gets its own cluster, grown through the gateway counts,
// over one shared dataset.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { AccountPool, api, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intListOption, intOption } from '../lib/args.ts';
import { pause } from '../lib/burst.ts';
import { GatewayFleet } from '../lib/gateway-fleet.ts';
import { eventsNeeded, spreadGroups } from '../lib/group-spread.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, metric, scrape, type Scrape } from '../lib/metrics.ts';
import { natsTraffic, readNats, readNatsConnections, type NatsCounters } from '../lib/nats-monitor.ts';
import { forEachLimited, progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { percentile, round } from '../lib/stats.ts';
import { lineChart } from '../lib/svg-chart.ts';
import { openBenchDatabase } from '../lib/target.ts';
import { stamp } from '../swarm/protocol.ts';
import { Swarm } from '../swarm/swarm.ts';

const MODES = ['rooms', 'broadcast'] as const;
export type FanoutMode = (typeof MODES)[number];

/** The counter the routed gateways keep (shared/API.md); servers before it only time each event they hand to sockets. */
const RECEIVED_METRIC = 'im_gateway_room_events_received_total';
const FALLBACK_METRIC = 'im_gateway_fanout_seconds_count';

export interface GatewayRow {
  gateway: number;
  /** Sockets open on it while the messages were sent. */
  sockets: number;
  /** Rooms it was subscribed to then (null: the server keeps no such gauge). */
  roomSubscriptions: number | null;
  received: number;
  needed: number;
  /** received / needed (null when it needed none). */
  ratio: number | null;
  /** The gateway process's CPU over the window (sends, deliveries and the quiet read before and after). */
  cpuMs: number;
  /** What NATS delivered on its room-routing connection (null: it has none, broadcast). */
  natsRoomMsgs: number | null;
  natsRoomBytes: number | null;
}

export interface FanoutStep {
  mode: FanoutMode;
  gateways: number;
  groups: number;
  /** Groups whose members are on two gateways. */
  splitGroups: number;
  sockets: number;
  messagesSent: number;
  sendErrors: number;
  sendErrorSamples: string[];
  deliveries: { expected: number; received: number; p50Ms: number; p99Ms: number; p100Ms: number };
  /** Which counter `received` was read from. */
  intakeMetric: string;
  perGateway: GatewayRow[];
  /** Room events received per gateway: mean and largest. */
  receivedPerGateway: { mean: number; max: number };
  neededPerGateway: { mean: number; max: number };
  /** Gateway CPU over the window: mean and largest. */
  cpuMsPerGateway: { mean: number; max: number };
  /** The largest received / needed of any gateway. */
  maxRatio: number | null;
  /** Everything NATS carried while the messages were sent and delivered (the sends' own requests included). */
  nats: NatsCounters & {
    outMsgsPerMessage: number;
    outBytesPerMessage: number;
    inBytesPerMessage: number;
  };
  /** Bytes on the wire per room event NATS delivered to a gateway's room connection (null: broadcast). */
  roomEventBytes: number | null;
  /** NATS subscriptions of the whole cluster, and the gateways' room subscriptions, with every socket connected. */
  subscriptions: { nats: number; rooms: number | null };
}

interface Options {
  gateways: number[];
  modes: FanoutMode[];
  groupsPerGateway: number;
  members: number;
  messages: number;
  split: number;
  processes: number;
  sendConcurrency: number;
  out: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, {
    gateways: { type: 'string' },
    modes: { type: 'string' },
    'groups-per-gateway': { type: 'string' },
    members: { type: 'string' },
    messages: { type: 'string' },
    split: { type: 'string' },
    processes: { type: 'string' },
    'send-concurrency': { type: 'string' },
  });
  const refuse = (why: string): never => {
    process.stderr.write(`${why}\n`);
    process.exit(2);
  };
  const modes = (values.modes ?? MODES.join(',')).split(',').map((m) => m.trim());
  if (modes.some((m) => !(MODES as readonly string[]).includes(m)) || new Set(modes).size !== modes.length)
    refuse(`--modes takes distinct names of ${MODES.join(', ')} (got ${JSON.stringify(values.modes)})`);
  const split = values.split === undefined ? 0.5 : Number(values.split);
  if (!(split >= 0 && split <= 1))
    refuse(`--split must be a share between 0 and 1 (got ${JSON.stringify(values.split)})`);
  return {
    gateways: [...new Set(intListOption('gateways', values.gateways, [4, 8, 12, 16]))].sort((a, b) => a - b),
    modes: modes as FanoutMode[],
    groupsPerGateway: intOption('groups-per-gateway', values['groups-per-gateway'], 6),
    members: intOption('members', values.members, 12),
    messages: intOption('messages', values.messages, 10),
    split,
    processes: intOption('processes', values.processes, 2),
    sendConcurrency: intOption('send-concurrency', values['send-concurrency'], 8),
    out: values.out,
  };
}

/** A group of the dataset: its owner sends, its members (owner first) connect. */
interface DatasetGroup {
  id: string;
  converseId: string;
  members: Account[];
}

/** Every group the largest step needs, each with its own members (a user is in one group). */
async function createDataset(base: string, o: Options): Promise<DatasetGroup[]> {
  const count = o.gateways.at(-1)! * o.groupsPerGateway;
  const accounts = await new AccountPool(base).ensure(count * o.members);
  const groups: DatasetGroup[] = [];
  const indexes = Array.from({ length: count }, (_, g) => g);
  await forEachLimited(indexes, 4, `creating ${count} groups`, async (g) => {
    const members = accounts.slice(g * o.members, (g + 1) * o.members);
    const group = await BenchGroup.create(base, members[0]!, `fanout ${g}`);
    await group.join(members.slice(1), 6, true);
    groups[g] = { id: group.id, converseId: group.converseId, members };
  });
  return groups;
}

const intakeOf = (s: Scrape): { value: number; metric: string } =>
  s.has(RECEIVED_METRIC)
    ? { value: metric(s, RECEIVED_METRIC), metric: RECEIVED_METRIC }
    : { value: metric(s, FALLBACK_METRIC), metric: FALLBACK_METRIC };

/**
 * A routed gateway stays subscribed to a room for a while after its last
 * socket left (so reconnects do not churn): the benchmark shortens that and,
 * between steps, waits until no gateway holds any room, so that no step hears
 * the rooms of the one before.
 */
const LINGER_MS = 1000;

async function awaitRoomsReleased(gateways: readonly string[], limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const held = (await Promise.all(gateways.map(scrape))).reduce(
      (s, x) => s + metric(x, 'im_gateway_room_subscriptions'),
      0,
    );
    if (held === 0) return;
    if (Date.now() > deadline) {
      process.stdout.write(`  the gateways still hold ${held} room subscriptions after ${limitMs / 1000} s\n`);
      return;
    }
    await pause(500);
  }
}

/**
 * Reads every gateway until their intake stops moving (presence of the
 * sockets just connected, or events still on their way): bounded.
 */
async function settledScrapes(gateways: readonly string[], quietMs = 1200, limitMs = 20_000): Promise<Scrape[]> {
  const deadline = Date.now() + limitMs;
  let scrapes = await Promise.all(gateways.map(scrape));
  let total = scrapes.reduce((s, x) => s + intakeOf(x).value, 0);
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < quietMs) {
    await pause(300);
    scrapes = await Promise.all(gateways.map(scrape));
    const now = scrapes.reduce((s, x) => s + intakeOf(x).value, 0);
    if (now !== total) quietSince = Date.now();
    total = now;
  }
  return scrapes;
}

/** Each group's owner sends `messages` over HTTP to its home gateway, round robin over the groups. */
async function sendMessages(
  gateways: readonly string[],
  groups: readonly DatasetGroup[],
  homes: readonly number[],
  o: Options,
  tag: string,
) {
  const acked = groups.map(() => 0);
  const errors: string[] = [];
  let failed = 0;
  const plan = Array.from({ length: groups.length * o.messages }, (_, i) => ({
    g: i % groups.length,
    n: Math.floor(i / groups.length),
  }));
  await forEachLimited(plan, o.sendConcurrency, `sending ${plan.length} messages`, async ({ g, n }) => {
    const group = groups[g]!;
    const key = `t:${tag}:${g}:${n}`;
    try {
      await api(gateways[homes[g]!]!, 'POST', `/api/converses/${group.converseId}/messages`, group.members[0]!.token, {
        content: stamp(key),
        clientMsgId: key,
      });
      acked[g]! += 1;
    } catch (err) {
      failed += 1;
      if (errors.length < 5) errors.push(err instanceof Error ? err.message : String(err));
    }
  });
  return { acked, failed, errors };
}

/** Waits (bounded) until the swarm has `expected` deliveries, or none came for 10 s. */
async function awaitDeliveries(swarm: Swarm, expected: number) {
  const latencies: number[] = [];
  let received = 0;
  const bar = progress('deliveries', expected);
  const deadline = Date.now() + 60_000 + expected;
  let lastProgress = Date.now();
  try {
    while (received < expected && Date.now() < deadline && Date.now() - lastProgress < 10_000) {
      await pause(200);
      const got = await swarm.latencies();
      if (got.deliveries > 0) lastProgress = Date.now();
      received += got.deliveries;
      latencies.push(...got.latencyMs);
      bar.update(received);
    }
  } finally {
    bar.stop();
  }
  return { received, latencies: latencies.sort((a, b) => a - b) };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

async function measureStep(
  fleet: GatewayFleet,
  dataset: readonly DatasetGroup[],
  mode: FanoutMode,
  gatewayCount: number,
  o: Options,
  load: LoadCpu,
): Promise<FanoutStep> {
  await fleet.grow(gatewayCount);
  const gateways = fleet.gateways.slice(0, gatewayCount);
  const groups = dataset.slice(0, gatewayCount * o.groupsPerGateway);
  const placements = spreadGroups(groups.length, gatewayCount, o.members, o.split);
  const sockets = groups.flatMap((group, g) =>
    group.members.map((m, i) => ({ token: m.token, url: gateways[placements[g]!.memberGateways[i]!]! })),
  );
  const swarm = new Swarm(o.processes);
  try {
    const connected = await swarm.connect(`${mode}, ${gatewayCount} gateways: connecting`, sockets, gateways, {
      concurrency: 20,
      // The answer to a first sync means the socket is in all its rooms.
      sync: {},
    });
    if (connected.failed > 0)
      throw new Error(`${connected.failed} sockets failed to connect: ${connected.errors.join('; ')}`);
    const before = await settledScrapes(gateways);
    const [natsBefore, connectionsBefore] = await Promise.all([
      readNats(fleet.natsMonitor),
      readNatsConnections(fleet.natsMonitor),
    ]);
    const sent = await sendMessages(
      gateways,
      groups,
      placements.map((p) => p.gateways[0]!),
      o,
      `${mode}:${gatewayCount}`,
    );
    const expected = sent.acked.reduce((s, n) => s + n, 0) * o.members;
    const delivered = await awaitDeliveries(swarm, expected);
    const after = await settledScrapes(gateways);
    const [natsAfter, connectionsAfter] = await Promise.all([
      readNats(fleet.natsMonitor),
      readNatsConnections(fleet.natsMonitor),
    ]);
    const traffic = natsTraffic(natsBefore, natsAfter);
    // A routed node names its room connection after itself (server/src/node.ts).
    const roomTraffic = (i: number) => {
      const name = `gateway-${i + 1}-rooms`;
      const [b, a] = [connectionsBefore.get(name), connectionsAfter.get(name)];
      return b && a ? { msgs: a.outMsgs - b.outMsgs, bytes: a.outBytes - b.outBytes } : undefined;
    };
    const needed = eventsNeeded(placements, sent.acked, gatewayCount);
    const perGateway: GatewayRow[] = gateways.map((_, i) => {
      const received = intakeOf(after[i]!).value - intakeOf(before[i]!).value;
      const subscriptions = before[i]!.has('im_gateway_room_subscriptions')
        ? metric(before[i]!, 'im_gateway_room_subscriptions')
        : null;
      return {
        gateway: i + 1,
        sockets: metric(before[i]!, 'im_gateway_sockets'),
        roomSubscriptions: subscriptions,
        received,
        needed: needed[i]!,
        ratio: needed[i]! > 0 ? round(received / needed[i]!, 3) : null,
        cpuMs: round((cpuSeconds(after[i]!) - cpuSeconds(before[i]!)) * 1000),
        natsRoomMsgs: roomTraffic(i)?.msgs ?? null,
        natsRoomBytes: roomTraffic(i)?.bytes ?? null,
      };
    });
    const messagesSent = sent.acked.reduce((s, n) => s + n, 0);
    const perMessage = (n: number) => (messagesSent > 0 ? round(n / messagesSent, 1) : 0);
    const ratios = perGateway.map((r) => r.ratio).filter((r): r is number => r !== null);
    const roomSubs = perGateway.map((r) => r.roomSubscriptions);
    const roomMsgs = perGateway.reduce((s, r) => s + (r.natsRoomMsgs ?? 0), 0);
    const roomBytes = perGateway.reduce((s, r) => s + (r.natsRoomBytes ?? 0), 0);
    return {
      mode,
      gateways: gatewayCount,
      groups: groups.length,
      splitGroups: placements.filter((p) => p.gateways.length > 1).length,
      sockets: connected.ok,
      messagesSent,
      sendErrors: sent.failed,
      sendErrorSamples: sent.errors,
      deliveries: {
        expected,
        received: delivered.received,
        p50Ms: round(percentile(delivered.latencies, 50)),
        p99Ms: round(percentile(delivered.latencies, 99)),
        p100Ms: round(percentile(delivered.latencies, 100)),
      },
      intakeMetric: intakeOf(after[0]!).metric,
      perGateway,
      receivedPerGateway: {
        mean: round(mean(perGateway.map((r) => r.received))),
        max: Math.max(...perGateway.map((r) => r.received)),
      },
      neededPerGateway: { mean: round(mean(needed)), max: Math.max(...needed) },
      cpuMsPerGateway: {
        mean: round(mean(perGateway.map((r) => r.cpuMs))),
        max: Math.max(...perGateway.map((r) => r.cpuMs)),
      },
      maxRatio: ratios.length > 0 ? Math.max(...ratios) : null,
      nats: {
        ...traffic,
        outMsgsPerMessage: perMessage(traffic.outMsgs),
        outBytesPerMessage: perMessage(traffic.outBytes),
        inBytesPerMessage: perMessage(traffic.inBytes),
      },
      roomEventBytes: roomMsgs > 0 ? round(roomBytes / roomMsgs, 1) : null,
      subscriptions: {
        nats: natsBefore.subscriptions,
        rooms: roomSubs.every((s) => s !== null) ? roomSubs.reduce((s, n) => s + n, 0) : null,
      },
    };
  } finally {
    load.addChildren(await swarm.close().catch(() => 0), o.processes);
  }
}

function printStep(s: FanoutStep): void {
  const lost = s.deliveries.expected - s.deliveries.received;
  process.stdout.write(
    `${s.mode}, ${s.gateways} gateways: ${s.sockets} sockets in ${s.groups} groups (${s.splitGroups} on two gateways), ${s.messagesSent} messages; ` +
      `received/needed per gateway ${s.perGateway.map((r) => `${r.received}/${r.needed}`).join(' ')}; ` +
      `max ratio ${s.maxRatio ?? 'n/a'}; NATS ${s.nats.outMsgs} msgs out, ${s.subscriptions.nats} subscriptions; ` +
      `delivered ${s.deliveries.received}/${s.deliveries.expected}${lost !== 0 ? ` (${lost} missing)` : ''}, p50 ${s.deliveries.p50Ms} ms\n`,
  );
  if (s.sendErrors > 0) process.stdout.write(`  ${s.sendErrors} sends failed: ${s.sendErrorSamples.join('; ')}\n`);
}

function printSummary(steps: readonly FanoutStep[]): void {
  process.stdout.write(
    table(
      steps.map((s) => ({
        mode: s.mode,
        gateways: s.gateways,
        sockets: s.sockets,
        messages: s.messagesSent,
        'received/gw': s.receivedPerGateway.mean,
        'needed/gw': s.neededPerGateway.mean,
        'max ratio': s.maxRatio ?? 'n/a',
        'CPU ms/gw': s.cpuMsPerGateway.mean,
        'NATS msgs out': s.nats.outMsgs,
        'NATS MB out': round(s.nats.outBytes / 2 ** 20, 2),
        'bytes out/msg': s.nats.outBytesPerMessage,
        'B/room event': s.roomEventBytes ?? 'n/a',
        'NATS subs': s.subscriptions.nats,
        'room subs': s.subscriptions.rooms ?? 'n/a',
        lost: s.deliveries.expected - s.deliveries.received,
        'p50 ms': s.deliveries.p50Ms,
      })),
    ),
  );
  for (const mode of MODES) {
    const rows = steps.filter((s) => s.mode === mode);
    if (rows.length < 2) continue;
    const first = rows[0]!;
    const last = rows.at(-1)!;
    process.stdout.write(
      `${mode}: ${first.gateways} -> ${last.gateways} gateways (x${round(last.gateways / first.gateways, 2)}), intake per gateway ${first.receivedPerGateway.mean} -> ${last.receivedPerGateway.mean} (x${round(last.receivedPerGateway.mean / first.receivedPerGateway.mean, 2)})\n`,
    );
  }
  const worst = steps.filter((s) => s.mode === 'rooms').map((s) => s.maxRatio ?? 0);
  if (worst.length > 0) {
    const max = Math.max(...worst);
    process.stdout.write(
      `routed: largest received/needed of any gateway ${max} (target ≤ 1.1${max > 1.1 ? ': missed' : ''})\n`,
    );
  }
}

const label = (mode: FanoutMode) => (mode === 'rooms' ? 'routed (rooms)' : 'broadcast to all');

export async function run(argv: string[]): Promise<void> {
  const o = parseOptions(argv);
  const load = new LoadCpu();
  const database = await openBenchDatabase({});
  // One key for every fleet: the accounts made in the first stay signed in for the next.
  const secret = randomBytes(32).toString('base64url');
  const steps: FanoutStep[] = [];
  let dataset: DatasetGroup[] | undefined;
  process.stdout.write(
    `fanout-routing: ${o.gateways.join(', ')} gateways; per gateway ${o.groupsPerGateway} groups of ${o.members} members online (${Math.round(o.split * 100)}% of the groups on two gateways), ${o.messages} messages per group; modes ${o.modes.join(', ')}\n`,
  );
  try {
    for (const mode of o.modes) {
      const fleet = await GatewayFleet.start({
        mongoUrl: database.url,
        secret,
        env: { FANOUT_ROUTING: mode, FANOUT_ROUTING_LINGER_MS: String(LINGER_MS) },
      });
      try {
        await fleet.grow(1);
        dataset ??= await createDataset(fleet.gateways[0]!, o);
        for (const g of o.gateways) {
          const step = await measureStep(fleet, dataset, mode, g, o, load);
          if (mode === 'rooms' && step.intakeMetric !== RECEIVED_METRIC)
            process.stdout.write(`  this server keeps no ${RECEIVED_METRIC}: it does not route by room\n`);
          printStep(step);
          steps.push(step);
          await awaitRoomsReleased(fleet.gateways);
        }
      } finally {
        await fleet.stop();
      }
    }
  } finally {
    await database.cleanup();
  }
  printSummary(steps);
  const series = (mode: FanoutMode, name: string, pick: (s: FanoutStep) => number) => ({
    name: `${label(mode)}: ${name}`,
    points: steps.filter((s) => s.mode === mode).map((s) => [s.gateways, pick(s)] as [number, number]),
  });
  const neededLine = Math.max(...steps.map((s) => s.neededPerGateway.mean));
  const written = writeResult(
    {
      benchmark: 'fanout-routing',
      target: 'cluster',
      mongo: database.kind,
      clientProcesses: o.processes,
      workload: {
        groupsPerGateway: o.groupsPerGateway,
        membersPerGroup: o.members,
        messagesPerGroup: o.messages,
        splitShare: o.split,
        sendConcurrency: o.sendConcurrency,
      },
      modes: o.modes,
      steps,
    },
    {
      out: o.out,
      load,
      chart: {
        title: 'Room events received per gateway, same load per gateway',
        xLabel: 'gateways',
        yLabel: 'room events received per gateway',
        series: o.modes.map((mode) => series(mode, 'received (mean)', (s) => s.receivedPerGateway.mean)),
        // The workload decides it, the same per gateway at every count: a line the routed one should lie on.
        reference: { y: neededLine, label: `needed by its sockets: ${neededLine}` },
      },
    },
  );
  const natsSvg = written.json.replace(/\.json$/, '') + '-nats.svg';
  writeFileSync(
    natsSvg,
    lineChart({
      title: 'What NATS delivered per message sent',
      xLabel: 'gateways',
      yLabel: 'NATS messages out per message sent',
      series: o.modes.map((mode) => series(mode, 'NATS msgs out / message', (s) => s.nats.outMsgsPerMessage)),
    }),
  );
  process.stdout.write(`written ${natsSvg}\n`);
}
