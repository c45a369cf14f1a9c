// Offline members' notifications, delivered over HTTP on loopback to a local
// endpoint (its own process, push-sink.ts) standing in for a push service or
// for the push proxy. Members register their destinations through the API
// (`--channel webpush`: Web Push subscriptions, encrypted and VAPID-signed
// per notification; `--channel proxy`: mobile device tokens, one JSON POST
// per device to PUSH_PROXY_URL) and never connect; one member @mentions them
// (or DMs them) over the API. A warm-up burst goes first; the server's RSS is
// sampled every 200 ms from the end of the warm-up to the end of the burst.
import { createECDH, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DmConverse } from '@im/protocol';
import { startRedis, type RedisServerHandle } from '@im/dev-servers';
import { AccountPool, api, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intOption, queueOption, serverRootOf } from '../lib/args.ts';
import { awaitArrivals, burstChart, pause, sendBurst, type SendBurst } from '../lib/burst.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, metric, scrape } from '../lib/metrics.ts';
import { forEachLimited } from '../lib/progress.ts';
import { Receiver } from '../lib/receiver.ts';
import { table, writeResult } from '../lib/report.ts';
import { mib, RssSampler } from '../lib/rss-sampler.ts';
import { rssFigures, rssPoints, serverRss } from '../lib/server-rss.ts';
import { round, summarize, type Summary } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';
import type { PushChannel, SinkCommand, SinkStats } from './push-sink.ts';

/** Mentions the server resolves per message (services/chat/src/mentions.ts). */
const MAX_MENTIONS = 50;
/** Web Push subscriptions, and devices, the server keeps per user (a newer one replaces the oldest). */
const MAX_PER_USER = 10;
/** The cluster node that runs the push service (server/src/cluster.ts). */
const PUSH_NODE = { id: 'services-2', services: 'file, push' };
const SINK_FILE = fileURLToPath(new URL('./push-sink.ts', import.meta.url));

export interface PushResult {
  channel: PushChannel;
  kind: 'mention' | 'dm' | 'all';
  queue: 'memory' | 'redis';
  members: number;
  /** Web Push subscriptions or devices per member. */
  destinationsPerMember: number;
  warmupNotifications: number;
  messages: number;
  expected: number;
  received: number;
  missing: number;
  duplicates: number;
  /** Arrivals for destinations nobody registered. */
  strays: number;
  malformed: number;
  sendErrors: number;
  sendErrorSamples: string[];
  /** From the first send to the last send answered. */
  sendSeconds: number;
  /** POST /api/converses/:id/messages while the burst was going on. */
  sendLatencyMs: Summary;
  firstArrivalMs: number;
  lastArrivalMs: number;
  /** From the first to the last arrival at the endpoint. */
  deliverySeconds: number;
  notificationsPerSecond: number | null;
  /** Arrivals over the time from the first send to the last arrival. */
  endToEndPerSecond: number | null;
  /** TCP connections the endpoint saw (warm-up included). */
  connections: number;
  server: {
    rssSource: string;
    /** rssBeforeMiB is the reading after the warm-up; rssAfterMiB 2 s after the last arrival. */
    rssBeforeMiB: number;
    rssPeakMiB: number;
    rssAfterMiB: number;
    rssGrowthMiB: number;
    /** After warm-up → end, as a share of after warm-up. */
    rssChangePercent: number;
    rssSamples: number;
    rssSampleFailures: number;
    queueDepthPeak: number | null;
    /** V8's heap (total, used) and external memory, MiB (single instance). */
    heapAfterWarmup: { totalMiB: number; usedMiB: number; externalMiB: number } | null;
    heapAtEnd: { totalMiB: number; usedMiB: number; externalMiB: number } | null;
    /**
     * Every /metrics reading from after the warm-up to the end (single instance):
     * s since the first send, and MiB: which part of the RSS grows (V8's new and old space are
     * parts of its heap total).
     */
    memoryOverTime: Array<{
      s: number;
      rss: number;
      heapTotal: number;
      heapUsed: number;
      external: number;
      newSpace: number;
      oldSpace: number;
    }>;
    /** Server CPU (user + system, every service of the single instance) from the burst's start to 2 s after its end. */
    cpuSeconds: number | null;
    /** The same per notification received, µs: steadier than the rate on a shared machine. */
    cpuMicrosPerNotification: number | null;
    pushSent: number | null;
    pushFailed: number | null;
    pushRetried: number | null;
    pushConcurrency: number | string;
    encryptWorkers: number | string;
  };
  endpointCpuSeconds: number;
}

interface Planned {
  converseId: string;
  content: string;
}

/** A browser's side of a subscription: real P-256 and auth keys, so the server encrypts for real. */
function subscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    channel: { type: 'string' },
    notifications: { type: 'string' },
    warmup: { type: 'string' },
    members: { type: 'string' },
    subscriptions: { type: 'string' },
    devices: { type: 'string' },
    kind: { type: 'string' },
    queue: { type: 'string' },
    'send-concurrency': { type: 'string' },
    'push-concurrency': { type: 'string' },
    'encrypt-workers': { type: 'string' },
    /** Another checkout's server (a worktree of an earlier commit, with its own node_modules): before/after. */
    'server-root': { type: 'string' },
  });
  const channel = values.channel ?? 'webpush';
  if (channel !== 'webpush' && channel !== 'proxy')
    fail(`--channel must be webpush or proxy (got ${JSON.stringify(channel)})`);
  const proxy = channel === 'proxy';
  if (proxy && values.subscriptions) fail('--subscriptions is for --channel webpush (use --devices)');
  if (!proxy && values.devices) fail('--devices is for --channel proxy (use --subscriptions)');
  // The proxy forwards what Web Push would encrypt: to measure it, not the message sends, a
  // message reaches many devices (`@all` in a group of 500 with 2 devices each: 1,000 per message).
  const kind = values.kind ?? (proxy ? 'all' : 'mention');
  if (kind !== 'mention' && kind !== 'dm' && kind !== 'all')
    fail(`--kind must be mention, all or dm (got ${JSON.stringify(kind)})`);
  const wanted = intOption('notifications', values.notifications, proxy ? 100_000 : 20_000);
  const queue = queueOption(values.queue, values.cluster, 'push jobs');
  const members = intOption('members', values.members, kind === 'all' ? 500 : MAX_MENTIONS);
  if (kind === 'mention' && members > MAX_MENTIONS)
    fail(`--members: a message mentions at most ${MAX_MENTIONS} members (use --kind all or dm for more)`);
  const perMember = proxy
    ? intOption('devices', values.devices, 2)
    : intOption('subscriptions', values.subscriptions, 2);
  if (perMember > MAX_PER_USER)
    fail(
      `--${proxy ? 'devices' : 'subscriptions'}: the server keeps at most ${MAX_PER_USER} per user (got ${perMember})`,
    );
  const sendConcurrency = intOption('send-concurrency', values['send-concurrency'], 4);
  const pushConcurrency = values['push-concurrency']
    ? intOption('push-concurrency', values['push-concurrency'], 64)
    : undefined;
  // 0 is a value here (encryption inline), so intOption's positive check does not fit.
  const encryptWorkers = values['encrypt-workers'];
  if (encryptWorkers !== undefined && !/^\d+$/.test(encryptWorkers))
    fail(`--encrypt-workers must be 0 or a positive integer (got ${JSON.stringify(encryptWorkers)})`);
  // Each group message reaches every member's every destination; each DM one member's.
  const perMessage = kind === 'dm' ? perMember : members * perMember;
  const messages = Math.ceil(wanted / perMessage);
  const expected = messages * perMessage;
  // A tenth of the burst by default: the code compiled, the pools and heap grown to their working size.
  const warmupMessages = Math.max(
    1,
    Math.ceil(intOption('warmup', values.warmup, Math.ceil(expected / 10)) / perMessage),
  );

  const load = new LoadCpu();
  const sink = new Receiver<SinkCommand, SinkStats>(SINK_FILE, '--sink', 'the push endpoint');
  const sinkCount = async () => (await sink.ask({ type: 'stats' })).count;
  const origin = `http://127.0.0.1:${await sink.port}`;
  let redis: RedisServerHandle | undefined;
  let target: Target | undefined;
  let result: PushResult | undefined;
  const deliveredOverTime: Array<[number, number]> = [];
  let rssOverTime: Array<[number, number]> = [];
  try {
    if (queue === 'redis' && !values.cluster) redis = await startRedis();
    target = await startTarget({
      cluster: values.cluster,
      ...serverRootOf(values['server-root']),
      env: {
        VAPID_SUBJECT: 'mailto:bench@example.org',
        ...(proxy ? { PUSH_PROXY_URL: `${origin}/proxy` } : {}),
        ...(pushConcurrency ? { PUSH_CONCURRENCY: String(pushConcurrency) } : {}),
        ...(encryptWorkers !== undefined ? { PUSH_ENCRYPT_WORKERS: encryptWorkers } : {}),
        ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:' } : {}),
      },
    });
    const base = target.gateways[0]!;
    const mode = target.mode;
    const what = proxy ? 'device(s) each, through the push proxy' : 'Web Push subscription(s) each';
    process.stdout.write(
      `push: ${expected} notifications = ${messages} ${kind === 'dm' ? `DMs to ${members} offline members` : `messages ${kind === 'all' ? '@all to' : 'mentioning'} ${members} offline members`}, ${perMember} ${what}; ${warmupMessages * perMessage} to warm up; queue: ${queue}; endpoint ${origin}\n`,
    );
    const pool = new AccountPool(base);
    const accounts = await pool.ensure(members + 1);
    const sender = accounts[0]!;
    const recipients = accounts.slice(1);

    let plan: (count: number, label: string) => Planned[];
    if (kind !== 'dm') {
      const group = await BenchGroup.create(base, sender, 'push');
      await group.join(recipients);
      // The owner may write `@all` whatever the group's size.
      const mentions = kind === 'all' ? '@all' : recipients.map((r) => `@${r.username}`).join(' ');
      plan = (count, label) =>
        Array.from({ length: count }, (_, i) => ({
          converseId: group.converseId,
          content: `${mentions} ${label} ${i}`,
        }));
    } else {
      const dms: string[] = [];
      await forEachLimited(recipients, 16, `opening ${recipients.length} DMs`, async (r: Account, i) => {
        dms[i] = (await api<DmConverse>(base, 'POST', '/api/dms', sender.token, { userId: r.id })).id;
      });
      plan = (count, label) =>
        Array.from({ length: count }, (_, i) => ({
          converseId: dms[i % dms.length]!,
          content: `a word, ${label} ${i}`,
        }));
    }
    // What each destination should receive in the measured burst (keyed as the sink counts).
    const expectedPerKey = new Map<string, number>();
    const destinations = recipients.flatMap((r, i) => Array.from({ length: perMember }, (_, s) => ({ r, i, s })));
    await forEachLimited(
      destinations,
      16,
      `registering ${destinations.length} ${proxy ? 'devices' : 'browsers'}`,
      async ({ r, i, s }) => {
        let key: string;
        if (proxy) {
          key = `bench-device-${i}-${s}`;
          await api(base, 'POST', '/api/push/devices', r.token, { platform: s % 2 ? 'android' : 'ios', token: key });
        } else {
          key = `/push/${i}/${s}`;
          await api(base, 'POST', '/api/push/subscriptions', r.token, subscription(`${origin}${key}`));
        }
        expectedPerKey.set(
          key,
          kind !== 'dm' ? messages : Math.floor(messages / members) + (i < messages % members ? 1 : 0),
        );
      },
    );
    const send = (m: Planned) =>
      api(base, 'POST', `/api/converses/${m.converseId}/messages`, sender.token, { content: m.content });

    // Warm-up: a smaller burst of the same shape through the whole path.
    await sink.ask({ type: 'reset', channel });
    const warm = sendBurst(plan(warmupMessages, 'push warm-up'), sendConcurrency, send);
    await awaitArrivals({
      label: 'warm-up',
      expected: warmupMessages * perMessage,
      count: sinkCount,
      burst: warm,
      deadline: Date.now() + 60_000 + 5 * warmupMessages * perMessage,
    });
    await warm.finished;
    const warmed = await sinkCount();
    if (warmed < warmupMessages * perMessage || warm.errors > 0)
      throw new Error(
        `warm-up: ${warmed} of ${warmupMessages * perMessage} notifications arrived (${warm.errors} failed sends: ${warm.errorSamples.join('; ')})`,
      );
    await pause(1000);

    // Measure from here on.
    await sink.ask({ type: 'reset', channel });
    const readMetrics = async () => (mode === 'single' ? await scrape(base) : undefined);
    const metricsBefore = await readMetrics();
    let depthPeak = 0;
    // What the RSS is made of, at the first and the latest reading (single instance only).
    const heap: Array<{ totalMiB: number; usedMiB: number; externalMiB: number }> = [];
    const memoryOverTime: PushResult['server']['memoryOverTime'] = [];
    // Set when the burst starts: readings before it are at negative times.
    let t0 = performance.timeOrigin + performance.now() + 600;
    const serverMemory = serverRss(target, PUSH_NODE, (s) => {
      depthPeak = Math.max(depthPeak, metric(s, 'im_push_queue_depth'));
      const reading = {
        totalMiB: mib(metric(s, 'im_nodejs_heap_size_total_bytes')),
        usedMiB: mib(metric(s, 'im_nodejs_heap_size_used_bytes')),
        externalMiB: mib(metric(s, 'im_nodejs_external_memory_bytes')),
      };
      heap[heap.length === 0 ? 0 : 1] = reading;
      const space = (name: string) => mib(metric(s, 'im_nodejs_heap_space_size_total_bytes', `space="${name}"`));
      memoryOverTime.push({
        s: round((performance.timeOrigin + performance.now() - t0) / 1000, 2),
        rss: mib(metric(s, 'im_process_resident_memory_bytes')),
        heapTotal: reading.totalMiB,
        heapUsed: reading.usedMiB,
        external: reading.externalMiB,
        newSpace: space('new'),
        oldSpace: space('old'),
      });
    });
    const sampler = new RssSampler(serverMemory.read, 200);
    await sampler.start();
    await pause(600); // a few readings before the burst

    t0 = performance.timeOrigin + performance.now();
    const burst: SendBurst = sendBurst(plan(messages, 'push benchmark'), sendConcurrency, send);
    // Wait for every notification, bounded: no arrival for 20 s after the sends, or the deadline.
    await awaitArrivals({
      label: 'notifications delivered',
      expected,
      count: sinkCount,
      burst,
      deadline: Date.now() + 60_000 + 5 * expected, // a minute, plus 5 ms per notification
      onCount: (n) => deliveredOverTime.push([round((performance.timeOrigin + performance.now() - t0) / 1000, 2), n]),
    });
    await burst.finished;
    // Late or duplicate deliveries, and the memory once the burst is over.
    await pause(2000);
    const rss = await sampler.stop();
    const stats = await sink.ask({ type: 'stats', perKey: true });
    deliveredOverTime.push([round((performance.timeOrigin + performance.now() - t0) / 1000, 2), stats.count]);
    const metricsAfter = await readMetrics();
    const delta = (name: string, labels = '') =>
      metricsBefore && metricsAfter ? metric(metricsAfter, name, labels) - metric(metricsBefore, name, labels) : null;

    const cpuUsed = metricsBefore && metricsAfter ? cpuSeconds(metricsAfter) - cpuSeconds(metricsBefore) : null;
    let duplicates = 0;
    let missing = 0;
    for (const [key, n] of expectedPerKey) {
      const got = stats.perKey[key] ?? 0;
      duplicates += Math.max(0, got - n);
      missing += Math.max(0, n - got);
    }
    const strays = Object.keys(stats.perKey).filter((k) => !expectedPerKey.has(k)).length;
    const seconds = (stats.last - stats.first) / 1000;
    // The sampler's clock starts 600 ms before t0.
    rssOverTime = rssPoints(rss, 0.6);
    const figures = rssFigures(rss);
    result = {
      channel,
      kind,
      queue,
      members,
      destinationsPerMember: perMember,
      warmupNotifications: warmupMessages * perMessage,
      messages,
      expected,
      received: stats.count,
      missing,
      duplicates,
      strays,
      malformed: stats.malformed,
      sendErrors: burst.errors,
      sendErrorSamples: burst.errorSamples,
      sendSeconds: round((burst.endedAt - t0) / 1000, 3),
      sendLatencyMs: summarize(burst.latencies),
      firstArrivalMs: round(stats.first - t0),
      lastArrivalMs: round(stats.last - t0),
      deliverySeconds: round(seconds, 3),
      notificationsPerSecond: seconds > 0 ? Math.round(stats.count / seconds) : null,
      endToEndPerSecond: stats.last > t0 ? Math.round(stats.count / ((stats.last - t0) / 1000)) : null,
      connections: stats.connections,
      server: {
        rssSource: serverMemory.source,
        ...figures,
        rssChangePercent: round(((rss.endBytes - rss.startBytes) / rss.startBytes) * 100, 1),
        queueDepthPeak: mode === 'single' ? depthPeak : null,
        heapAfterWarmup: heap[0] ?? null,
        heapAtEnd: heap[1] ?? null,
        memoryOverTime,
        cpuSeconds: cpuUsed === null ? null : round(cpuUsed, 2),
        cpuMicrosPerNotification: cpuUsed === null || stats.count === 0 ? null : round((cpuUsed / stats.count) * 1e6),
        pushSent: delta('im_push_sent_total'),
        pushFailed: delta('im_push_failed_total'),
        pushRetried: delta('im_push_retried_total'),
        pushConcurrency: pushConcurrency ?? 'default (64)',
        encryptWorkers: encryptWorkers !== undefined ? Number(encryptWorkers) : 'default (cores - 1)',
      },
      endpointCpuSeconds: round(stats.cpuMicros / 1e6, 2),
    };
    load.addChildren(stats.cpuMicros, 1);
  } finally {
    sink.close();
    await target?.stop();
    await redis?.stop();
  }
  const r = result!;
  const t = target!;
  const errors = r.missing + r.duplicates + r.malformed + r.sendErrors + (r.server.pushFailed ?? 0);
  process.stdout.write(
    table([
      {
        channel,
        queue,
        expected: r.expected,
        received: r.received,
        'first→last s': r.deliverySeconds,
        'notif/s': r.notificationsPerSecond ?? 'n/a',
        'send→last /s': r.endToEndPerSecond ?? 'n/a',
        'send p50 ms': r.sendLatencyMs.p50,
        'server µs/notif': r.server.cpuMicrosPerNotification ?? 'n/a',
        connections: r.connections,
        'RSS warm MB': r.server.rssBeforeMiB,
        'peak MB': r.server.rssPeakMiB,
        'end MB': r.server.rssAfterMiB,
        'warm→end': `${r.server.rssChangePercent > 0 ? '+' : ''}${r.server.rssChangePercent}%`,
        errors,
      },
    ]),
  );
  if ((r.notificationsPerSecond ?? 0) < 15_000)
    process.stdout.write(`below the target: ${r.notificationsPerSecond ?? 0} notifications/s (target 15,000)\n`);
  if (Math.abs(r.server.rssChangePercent) > 10)
    process.stdout.write(
      `server RSS not flat: ${r.server.rssChangePercent}% after warm-up → end (target within 10%)\n`,
    );
  if (errors > 0)
    process.stdout.write(
      `errors: missing ${r.missing}, duplicates ${r.duplicates}, malformed ${r.malformed}, failed sends ${r.sendErrors}, push failures ${r.server.pushFailed ?? 'n/a'}\n`,
    );
  writeResult(
    { benchmark: proxy ? 'push-proxy' : 'push', target: t.mode, mongo: t.mongoKind, ...r },
    {
      out: values.out,
      load,
      chart: burstChart(
        `Push (${channel}): ${r.expected} notifications (${t.mode}, ${queue} queue)`,
        rssOverTime,
        deliveredOverTime,
        r.expected,
      ),
    },
  );
}
