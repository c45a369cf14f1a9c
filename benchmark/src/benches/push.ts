// Offline members' notifications, delivered to a local push endpoint over
// HTTP on loopback. Members register Web Push subscriptions through the API
// and never connect; one member @mentions them (or DMs them) over the API; the
// endpoint (its own process, standing in for FCM/Mozilla's push service)
// counts the encrypted POSTs and the TCP connections they came over. The
// server's RSS is sampled every 200 ms throughout.
import { createECDH, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DmConverse } from '@im/protocol';
import { startRedis, type RedisServerHandle } from '@im/dev-servers';
import { AccountPool, api, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intOption, queueOption } from '../lib/args.ts';
import { awaitArrivals, awaitCount, burstChart, pause, sendBurst } from '../lib/burst.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { metric, scrape } from '../lib/metrics.ts';
import { forEachLimited } from '../lib/progress.ts';
import { Receiver, serveReceiver } from '../lib/receiver.ts';
import { table, writeResult } from '../lib/report.ts';
import { RssSampler } from '../lib/rss-sampler.ts';
import { rssFigures, rssPoints, serverRss } from '../lib/server-rss.ts';
import { round, summarize, type Summary } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

/** Mentions the server resolves per message (services/chat/src/mentions.ts). */
const MAX_MENTIONS = 50;
/** The cluster node that runs the push service (server/src/cluster.ts). */
const PUSH_NODE = { id: 'services-2', services: 'file, push' };

// ---------------------------------------------------------------------------
// The push endpoint: a child process running a bare node:http server.

interface SinkStats {
  count: number;
  /** Epoch ms (sub-ms precision) of the first and last complete request. */
  first: number;
  last: number;
  /** Requests that did not look like encrypted, VAPID-signed Web Push. */
  malformed: number;
  perPath: Record<string, number>;
}

type SinkCommand = { type: 'stats'; perPath?: boolean } | { type: 'reset' };

function runSink(): void {
  let count = 0;
  let first = 0;
  let last = 0;
  let malformed = 0;
  let perPath = new Map<string, number>();
  serveReceiver<SinkCommand, SinkStats>(
    (req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      req.on('end', () => {
        const t = performance.timeOrigin + performance.now();
        if (count === 0) first = t;
        last = t;
        count += 1;
        if (
          req.method !== 'POST' ||
          bytes === 0 ||
          req.headers['content-encoding'] !== 'aes128gcm' ||
          !String(req.headers.authorization).startsWith('vapid t=')
        )
          malformed += 1;
        const path = req.url ?? '';
        perPath.set(path, (perPath.get(path) ?? 0) + 1);
        res.writeHead(201).end();
      });
    },
    (m) => {
      // Connections are counted over the whole run: the warm-up opens the pool the burst reuses.
      if (m.type === 'reset') {
        count = malformed = 0;
        first = last = 0;
        perPath = new Map();
      }
      return {
        count,
        first,
        last,
        malformed,
        perPath: m.type === 'stats' && m.perPath ? Object.fromEntries(perPath) : {},
      };
    },
  );
}

// ---------------------------------------------------------------------------

interface PushResult {
  kind: 'mention' | 'dm';
  queue: 'memory' | 'redis';
  members: number;
  subscriptionsPerMember: number;
  messages: number;
  expected: number;
  received: number;
  missing: number;
  duplicates: number;
  /** Requests to paths no subscription has. */
  strayPaths: number;
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
  /** TCP connections the endpoint saw. */
  connections: number;
  server: {
    rssSource: string;
    rssBeforeMiB: number;
    rssPeakMiB: number;
    rssAfterMiB: number;
    rssGrowthMiB: number;
    rssSamples: number;
    rssSampleFailures: number;
    queueDepthPeak: number | null;
    pushSent: number | null;
    pushFailed: number | null;
    pushRetried: number | null;
    pushConcurrency: number | string;
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

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    notifications: { type: 'string' },
    members: { type: 'string' },
    subscriptions: { type: 'string' },
    kind: { type: 'string' },
    queue: { type: 'string' },
    'send-concurrency': { type: 'string' },
    'push-concurrency': { type: 'string' },
  });
  const wanted = intOption('notifications', values.notifications, 20_000);
  const kind = values.kind ?? 'mention';
  if (kind !== 'mention' && kind !== 'dm') {
    process.stderr.write(`--kind must be mention or dm (got ${JSON.stringify(kind)})\n`);
    process.exit(2);
  }
  const queue = queueOption(values.queue, values.cluster, 'push jobs');
  const members = intOption('members', values.members, MAX_MENTIONS);
  if (kind === 'mention' && members > MAX_MENTIONS) {
    process.stderr.write(`--members: a message mentions at most ${MAX_MENTIONS} members (use --kind dm for more)\n`);
    process.exit(2);
  }
  const perMember = intOption('subscriptions', values.subscriptions, 2);
  const sendConcurrency = intOption('send-concurrency', values['send-concurrency'], 4);
  const pushConcurrency = values['push-concurrency']
    ? intOption('push-concurrency', values['push-concurrency'], 64)
    : undefined;
  // Each mention message reaches every member's every subscription; each DM one member's.
  const perMessage = kind === 'mention' ? members * perMember : perMember;
  const messages = Math.ceil(wanted / perMessage);
  const expected = messages * perMessage;

  const load = new LoadCpu();
  const sink = new Receiver<SinkCommand, SinkStats>(fileURLToPath(import.meta.url), '--sink', 'the push endpoint');
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
      env: {
        VAPID_SUBJECT: 'mailto:bench@example.org',
        ...(pushConcurrency ? { PUSH_CONCURRENCY: String(pushConcurrency) } : {}),
        ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:' } : {}),
      },
    });
    const base = target.gateways[0]!;
    const mode = target.mode;
    process.stdout.write(
      `push: ${expected} notifications = ${messages} ${kind === 'mention' ? `messages mentioning ${members} offline members` : `DMs to ${members} offline members`}, ${perMember} subscription(s) each; queue: ${queue}; endpoint ${origin}\n`,
    );
    const pool = new AccountPool(base);
    const accounts = await pool.ensure(members + 1);
    const sender = accounts[0]!;
    const recipients = accounts.slice(1);

    const plan: Planned[] = [];
    if (kind === 'mention') {
      const group = await BenchGroup.create(base, sender, 'push');
      await group.join(recipients);
      const mentions = recipients.map((r) => `@${r.username}`).join(' ');
      for (let i = 0; i < messages; i += 1)
        plan.push({ converseId: group.converseId, content: `${mentions} push benchmark ${i}` });
    } else {
      const dms: string[] = [];
      await forEachLimited(recipients, 16, `opening ${recipients.length} DMs`, async (r: Account, i) => {
        dms[i] = (await api<DmConverse>(base, 'POST', '/api/dms', sender.token, { userId: r.id })).id;
      });
      for (let i = 0; i < messages; i += 1)
        plan.push({ converseId: dms[i % dms.length]!, content: `a direct word, push benchmark ${i}` });
    }
    // What each subscription should receive.
    const expectedPerPath = new Map<string, number>();
    const subs = recipients.flatMap((r, i) => Array.from({ length: perMember }, (_, s) => ({ r, i, s })));
    await forEachLimited(subs, 16, `subscribing ${subs.length} browsers`, async ({ r, i, s }) => {
      const path = `/push/${i}/${s}`;
      await api(base, 'POST', '/api/push/subscriptions', r.token, subscription(`${origin}${path}`));
      expectedPerPath.set(
        path,
        kind === 'mention' ? messages : Math.floor(messages / members) + (i < messages % members ? 1 : 0),
      );
    });

    // Warm-up: one message through the whole path (code paths compiled, the endpoint's connections opened).
    await sink.ask({ type: 'reset' });
    await api(base, 'POST', `/api/converses/${plan[0]!.converseId}/messages`, sender.token, {
      content: `${plan[0]!.content} (warm-up)`,
    });
    const warmed = await awaitCount(sinkCount, perMessage, 60_000);
    if (warmed < perMessage) throw new Error(`warm-up: ${warmed} of ${perMessage} notifications arrived in 60 s`);
    await pause(1000);

    // Measure from here on.
    await sink.ask({ type: 'reset' });
    const readMetrics = async () => (mode === 'single' ? await scrape(base) : undefined);
    const metricsBefore = await readMetrics();
    let depthPeak = 0;
    const serverMemory = serverRss(target, PUSH_NODE, (s) => {
      depthPeak = Math.max(depthPeak, metric(s, 'im_push_queue_depth'));
    });
    const sampler = new RssSampler(serverMemory.read, 200);
    await sampler.start();
    await pause(600); // a few readings before the burst

    const t0 = performance.timeOrigin + performance.now();
    const burst = sendBurst(plan, sendConcurrency, (m) =>
      api(base, 'POST', `/api/converses/${m.converseId}/messages`, sender.token, { content: m.content }),
    );

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
    const stats = await sink.ask({ type: 'stats', perPath: true });
    deliveredOverTime.push([round((performance.timeOrigin + performance.now() - t0) / 1000, 2), stats.count]);
    const metricsAfter = await readMetrics();
    const delta = (name: string, labels = '') =>
      metricsBefore && metricsAfter ? metric(metricsAfter, name, labels) - metric(metricsBefore, name, labels) : null;

    let duplicates = 0;
    let missing = 0;
    for (const [path, n] of expectedPerPath) {
      const got = stats.perPath[path] ?? 0;
      duplicates += Math.max(0, got - n);
      missing += Math.max(0, n - got);
    }
    const strays = Object.keys(stats.perPath).filter((p) => !expectedPerPath.has(p)).length;
    const seconds = (stats.last - stats.first) / 1000;
    // The sampler's clock starts 600 ms before t0.
    rssOverTime = rssPoints(rss, 0.6);
    result = {
      kind,
      queue,
      members,
      subscriptionsPerMember: perMember,
      messages,
      expected,
      received: stats.count,
      missing,
      duplicates,
      strayPaths: strays,
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
        ...rssFigures(rss),
        queueDepthPeak: mode === 'single' ? depthPeak : null,
        pushSent: delta('im_push_sent_total'),
        pushFailed: delta('im_push_failed_total'),
        pushRetried: delta('im_push_retried_total'),
        pushConcurrency: pushConcurrency ?? 'default (64)',
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
        queue,
        expected: r.expected,
        received: r.received,
        'first→last s': r.deliverySeconds,
        'notif/s': r.notificationsPerSecond ?? 'n/a',
        'send→last /s': r.endToEndPerSecond ?? 'n/a',
        'send p50 ms': r.sendLatencyMs.p50,
        connections: r.connections,
        'RSS before MB': r.server.rssBeforeMiB,
        'peak MB': r.server.rssPeakMiB,
        'after MB': r.server.rssAfterMiB,
        errors,
      },
    ]),
  );
  if ((r.notificationsPerSecond ?? 0) < 15_000)
    process.stdout.write(`below the target: ${r.notificationsPerSecond ?? 0} notifications/s (target 15,000)\n`);
  if (errors > 0)
    process.stdout.write(
      `errors: missing ${r.missing}, duplicates ${r.duplicates}, malformed ${r.malformed}, failed sends ${r.sendErrors}, push failures ${r.server.pushFailed ?? 'n/a'}\n`,
    );
  writeResult(
    { benchmark: 'push', target: t.mode, mongo: t.mongoKind, ...r },
    {
      out: values.out,
      load,
      chart: burstChart(
        `Push: ${r.expected} notifications (${t.mode}, ${queue} queue)`,
        rssOverTime,
        deliveredOverTime,
        r.expected,
      ),
    },
  );
}

if (import.meta.main && process.argv.includes('--sink')) runSink();
