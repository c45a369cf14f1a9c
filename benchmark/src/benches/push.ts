// Offline members' notifications, delivered to a local push endpoint over
// HTTP on loopback. Members register Web Push subscriptions through the API
// and never connect; one member @mentions them (or DMs them) over the API; the
// endpoint (its own process, standing in for FCM/Mozilla's push service)
// counts the encrypted POSTs and the TCP connections they came over. The
// server's RSS is sampled every 200 ms throughout.
import { createECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { DmConverse } from '@im/protocol';
import { startRedis, type RedisServerHandle } from '@im/dev-servers';
import { AccountPool, api, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intOption } from '../lib/args.ts';
import { IpcChild } from '../lib/ipc-child.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { metric, rssBytes, scrape } from '../lib/metrics.ts';
import { findNodePid } from '../lib/node-pid.ts';
import { forEachLimited, progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { mib, procRss, RssSampler } from '../lib/rss-sampler.ts';
import { round, summarize, type Summary } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

/** Mentions the server resolves per message (services/chat/src/mentions.ts). */
const MAX_MENTIONS = 50;
/** The cluster node that runs the push service (server/src/cluster.ts). */
const PUSH_NODE_ID = 'services-2';

// ---------------------------------------------------------------------------
// The push endpoint: a child process running a bare node:http server.

interface SinkStats {
  count: number;
  connections: number;
  /** Epoch ms (sub-ms precision) of the first and last complete request. */
  first: number;
  last: number;
  /** Requests that did not look like encrypted, VAPID-signed Web Push. */
  malformed: number;
  perPath: Record<string, number>;
  cpuMicros: number;
}

type SinkCommand = { type: 'stats'; reqId: number; perPath?: boolean } | { type: 'reset'; reqId: number };
type SinkReply = { type: 'ready'; port: number } | { type: 'stats'; reqId: number; stats: SinkStats };

function runSink(): void {
  let count = 0;
  let connections = 0;
  let first = 0;
  let last = 0;
  let malformed = 0;
  let perPath = new Map<string, number>();
  // Push services keep connections open for a long time; so does this one.
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
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
  });
  server.on('connection', () => {
    connections += 1;
  });
  process.on('message', (m: SinkCommand) => {
    // Connections are counted over the whole run: the warm-up opens the pool the burst reuses.
    if (m.type === 'reset') {
      count = malformed = 0;
      first = last = 0;
      perPath = new Map();
    }
    const cpu = process.cpuUsage();
    const reply: SinkReply = {
      type: 'stats',
      reqId: m.reqId,
      stats: {
        count,
        connections,
        first,
        last,
        malformed,
        perPath: m.type === 'stats' && m.perPath ? Object.fromEntries(perPath) : {},
        cpuMicros: cpu.user + cpu.system,
      },
    };
    process.send!(reply);
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies SinkReply);
  });
}

class Sink {
  readonly #ipc: IpcChild<{ type: 'stats'; perPath?: boolean } | { type: 'reset' }, SinkReply>;
  readonly port: Promise<number>;

  constructor() {
    // A session of its own (detached), like the server: with the kernel's autogroup scheduling it
    // gets its own CPU share instead of splitting ours. It exits when our IPC channel closes.
    let ready: (port: number) => void = () => undefined;
    this.#ipc = new IpcChild(fileURLToPath(import.meta.url), ['--sink'], {
      detached: true,
      onMessage: (m) => {
        if (m.type === 'ready') ready(m.port);
      },
    });
    this.port = new Promise((resolve, reject) => {
      ready = resolve;
      this.#ipc.child.once('exit', (code) => reject(new Error(`the push endpoint process exited (${code})`)));
    });
  }

  async #call(cmd: { type: 'stats'; perPath?: boolean } | { type: 'reset' }): Promise<SinkStats> {
    return (await this.#ipc.call<Extract<SinkReply, { type: 'stats' }>>(cmd, 10_000)).stats;
  }

  stats(perPath = false): Promise<SinkStats> {
    return this.#call({ type: 'stats', perPath });
  }

  reset(): Promise<SinkStats> {
    return this.#call({ type: 'reset' });
  }

  close(): void {
    this.#ipc.close();
  }
}

// ---------------------------------------------------------------------------
// The cluster's push node has no /metrics: its RSS comes from /proc.

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

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  const queueOption = values.queue ?? (values.cluster ? 'redis' : 'memory');
  if (queueOption !== 'memory' && queueOption !== 'redis') {
    process.stderr.write(`--queue must be memory or redis (got ${JSON.stringify(queueOption)})\n`);
    process.exit(2);
  }
  if (values.cluster && queueOption === 'memory') {
    process.stderr.write('the cluster always queues push jobs in Redis: drop --queue memory\n');
    process.exit(2);
  }
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
  const sink = new Sink();
  const origin = `http://127.0.0.1:${await sink.port}`;
  let redis: RedisServerHandle | undefined;
  let target: Target | undefined;
  let result: PushResult | undefined;
  const deliveredOverTime: Array<[number, number]> = [];
  let rssOverTime: Array<[number, number]> = [];
  try {
    if (queueOption === 'redis' && !values.cluster) redis = await startRedis();
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
      `push: ${expected} notifications = ${messages} ${kind === 'mention' ? `messages mentioning ${members} offline members` : `DMs to ${members} offline members`}, ${perMember} subscription(s) each; queue: ${queueOption}; endpoint ${origin}\n`,
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
    await sink.reset();
    await api(base, 'POST', `/api/converses/${plan[0]!.converseId}/messages`, sender.token, {
      content: `${plan[0]!.content} (warm-up)`,
    });
    for (let i = 0; i < 240 && (await sink.stats()).count < perMessage; i += 1) await pause(250);
    const warmed = (await sink.stats()).count;
    if (warmed < perMessage) throw new Error(`warm-up: ${warmed} of ${perMessage} notifications arrived in 60 s`);
    await pause(1000);

    // Measure from here on.
    await sink.reset();
    const readMetrics = async () => (mode === 'single' ? await scrape(base) : undefined);
    const metricsBefore = await readMetrics();
    let depthPeak = 0;
    let rssSource = 'gateway /metrics (the single instance)';
    let readRss: () => Promise<number> = async () => {
      const s = await scrape(base);
      depthPeak = Math.max(depthPeak, metric(s, 'im_push_queue_depth'));
      return rssBytes(s);
    };
    if (mode === 'cluster') {
      const pid = findNodePid(`NODE_ID=${PUSH_NODE_ID}`);
      if (pid === undefined) throw new Error(`cannot find the cluster's ${PUSH_NODE_ID} node to sample its RSS`);
      rssSource = `/proc of the cluster's ${PUSH_NODE_ID} node (file, push)`;
      readRss = procRss(pid);
    }
    const sampler = new RssSampler(readRss, 200);
    await sampler.start();
    await pause(600); // a few readings before the burst

    const t0 = performance.timeOrigin + performance.now();
    let sendErrors = 0;
    const sendLatencies: number[] = [];
    const sendError: string[] = [];
    let sendsDone = 0;
    let next = 0;
    let sendEnd = 0;
    const sending = Promise.all(
      Array.from({ length: sendConcurrency }, async () => {
        while (next < plan.length) {
          const m = plan[next++]!;
          const started = performance.now();
          try {
            await api(base, 'POST', `/api/converses/${m.converseId}/messages`, sender.token, { content: m.content });
            sendLatencies.push(performance.now() - started);
          } catch (err) {
            sendErrors += 1;
            if (sendError.length < 5) sendError.push(err instanceof Error ? err.message : String(err));
          }
          sendsDone += 1;
        }
      }),
    ).then(() => {
      sendEnd = performance.timeOrigin + performance.now();
    });

    // Wait for every notification, bounded: no arrival for 20 s after the sends, or the deadline.
    const bar = progress('notifications delivered', expected);
    const deadline = Date.now() + 60_000 + 5 * expected; // a minute, plus 5 ms per notification
    let lastCount = -1;
    let lastChange = Date.now();
    let stats: SinkStats;
    for (;;) {
      stats = await sink.stats();
      const t = performance.timeOrigin + performance.now();
      deliveredOverTime.push([round((t - t0) / 1000, 2), stats.count]);
      bar.update(stats.count);
      if (stats.count !== lastCount) {
        lastCount = stats.count;
        lastChange = Date.now();
      }
      if (stats.count >= expected && sendsDone === plan.length) break;
      if (sendsDone === plan.length && Date.now() - lastChange > 20_000) break;
      if (Date.now() > deadline) break;
      await pause(250);
    }
    bar.stop();
    await sending;
    // Late or duplicate deliveries, and the memory once the burst is over.
    await pause(2000);
    const rss = await sampler.stop();
    stats = await sink.stats(true);
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
    rssOverTime = rss.samples.map(([ms, bytes]) => [round(ms / 1000 - 0.6, 2), mib(bytes)]);
    result = {
      kind,
      queue: queueOption,
      members,
      subscriptionsPerMember: perMember,
      messages,
      expected,
      received: stats.count,
      missing,
      duplicates,
      strayPaths: strays,
      malformed: stats.malformed,
      sendErrors,
      sendErrorSamples: sendError,
      sendSeconds: round((sendEnd - t0) / 1000, 3),
      sendLatencyMs: summarize(sendLatencies),
      firstArrivalMs: round(stats.first - t0),
      lastArrivalMs: round(stats.last - t0),
      deliverySeconds: round(seconds, 3),
      notificationsPerSecond: seconds > 0 ? Math.round(stats.count / seconds) : null,
      endToEndPerSecond: stats.last > t0 ? Math.round(stats.count / ((stats.last - t0) / 1000)) : null,
      connections: stats.connections,
      server: {
        rssSource,
        rssBeforeMiB: mib(rss.startBytes),
        rssPeakMiB: mib(rss.peakBytes),
        rssAfterMiB: mib(rss.endBytes),
        rssGrowthMiB: mib(rss.peakBytes - rss.startBytes),
        rssSamples: rss.samples.length,
        rssSampleFailures: rss.failures,
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
        queue: queueOption,
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
      chart: {
        title: `Push: ${r.expected} notifications (${t.mode}, ${queueOption} queue)`,
        xLabel: 'seconds since the first send',
        yLabel: 'MB / % delivered',
        series: [
          { name: 'server RSS (MB)', points: rssOverTime },
          {
            name: 'delivered (%)',
            points: deliveredOverTime.map(([t, n]) => [t, round((n / Math.max(1, r.expected)) * 100)]),
          },
        ],
      },
    },
  );
}

if (import.meta.main && process.argv.includes('--sink')) runSink();
