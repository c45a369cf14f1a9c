// Outgoing webhook deliveries to a receiver on loopback. One group has
// `--hooks` outgoing webhooks, all pointing at one receiver (its own process,
// standing in for the integrations people run): every message sent to the
// group over the API is delivered, signed, to each hook. The receiver checks
// every signature against its hook's secret, dedupes by deliveryId (as
// receivers must: delivery is at least once) and, with `--fail-every K`,
// answers 500 to every K-th first attempt per hook so that the retries are
// measured too. The server's RSS is sampled every 200 ms throughout.
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startRedis, type RedisServerHandle } from '@im/dev-servers';
import type { OutgoingWebhookWithSecret, WebhookDelivery, WebhookEventBody } from '@im/protocol';
import { AccountPool, api, BenchGroup, type Account } from '../lib/api.ts';
import { benchArgs, intOption, queueOption } from '../lib/args.ts';
import { awaitArrivals, awaitCount, burstChart, pause, sendBurst, type SendBurst } from '../lib/burst.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { forEachLimited } from '../lib/progress.ts';
import { Receiver, serveReceiver, type ReceiverBase } from '../lib/receiver.ts';
import { table, writeResult } from '../lib/report.ts';
import { RssSampler, type RssTrace } from '../lib/rss-sampler.ts';
import { rssFigures, rssPoints, serverRss } from '../lib/server-rss.ts';
import { round, summarize, type Summary } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

/** The cluster node that runs the integration service (server/src/cluster.ts). */
const INTEGRATION_NODE = { id: 'services-2', services: 'file, push, moderation, integration' };
/** Outgoing webhooks a group may have (services/integration/src/outgoing-actions.ts). */
const MAX_HOOKS = 20;
/** The server's default WEBHOOK_CONCURRENCY (packages/sdk/src/config/schema.ts). */
const DEFAULT_CONCURRENCY = 32;

const hookPath = (i: number) => `/hook/${i}`;
const nowMs = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------
// The receiver: a child process running a bare node:http server.

/** What the receiver counted since the burst began. */
interface Tally {
  /** Every request, whatever it was answered. */
  requests: number;
  /** Distinct deliveryIds answered 2xx. */
  delivered: number;
  /** 2xx answered again for a deliveryId already answered 2xx. */
  duplicates: number;
  /** No hook at that path, or a signature that is not the hook's secret's. */
  badSignatures: number;
  /** Signed, but not the event the contract describes (or its headers disagree with its body). */
  malformed: number;
  /** First attempts answered 500 on purpose (--fail-every). */
  refused: number;
  /** Requests for a deliveryId the receiver had already seen. */
  repeats: number;
  /** Epoch ms (sub-ms precision) of the first and last delivery counted. */
  first: number;
  last: number;
  /** Distinct deliveries per hook path. */
  perHook: Record<string, number>;
}

type ReceiverStats = Tally & ReceiverBase;

type ReceiverCommand =
  | { type: 'hooks'; secrets: Record<string, string> }
  | { type: 'stats' }
  /** Zeroes the counts; from now on every `failEvery`-th first attempt to a hook is answered 500 (0: none). */
  | { type: 'measure'; failEvery: number };

const emptyTally = (): Tally => ({
  requests: 0,
  delivered: 0,
  duplicates: 0,
  badSignatures: 0,
  malformed: 0,
  refused: 0,
  repeats: 0,
  first: 0,
  last: 0,
  perHook: {},
});

const signatureOf = (secret: string, raw: Buffer) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** The deliveryId of an event as shared/API.md describes it, whose headers agree with its body. */
function eventId(req: IncomingMessage, raw: Buffer): string | undefined {
  let body: Partial<WebhookEventBody> | null;
  try {
    body = JSON.parse(raw.toString('utf8')) as Partial<WebhookEventBody> | null;
  } catch {
    return undefined;
  }
  const id = req.headers['x-im-delivery'];
  const valid =
    req.method === 'POST' &&
    body?.event === 'message.created' &&
    typeof id === 'string' &&
    /^[0-9a-f]{24}$/.test(id) &&
    body.deliveryId === id &&
    String(body.timestamp) === req.headers['x-im-timestamp'] &&
    typeof body.message?.id === 'string';
  return valid ? id : undefined;
}

class WebhookReceiver {
  readonly #secrets = new Map<string, string>();
  /** Per deliveryId, whether it was answered 2xx; kept over resets, so a late repeat of a warm-up delivery still counts as a duplicate. */
  readonly #answered = new Map<string, boolean>();
  #firstAttempts = new Map<string, number>();
  #failEvery = 0;
  #tally = emptyTally();

  command(c: ReceiverCommand): Tally {
    if (c.type === 'hooks') for (const [path, secret] of Object.entries(c.secrets)) this.#secrets.set(path, secret);
    if (c.type === 'measure') {
      this.#tally = emptyTally();
      this.#firstAttempts = new Map();
      this.#failEvery = c.failEvery;
    }
    return this.#tally;
  }

  /** Counts one request and says what to answer. */
  receive(req: IncomingMessage, raw: Buffer): number {
    const t = this.#tally;
    t.requests += 1;
    const path = req.url ?? '';
    const secret = this.#secrets.get(path);
    if (secret === undefined || req.headers['x-im-signature'] !== signatureOf(secret, raw)) {
      t.badSignatures += 1;
      return 401;
    }
    const id = eventId(req, raw);
    if (id === undefined) {
      t.malformed += 1;
      return 400;
    }
    const seen = this.#answered.get(id);
    if (seen === undefined && this.#failsOnPurpose(path)) {
      this.#answered.set(id, false);
      t.refused += 1;
      return 500;
    }
    if (seen !== undefined) t.repeats += 1;
    if (seen === true) t.duplicates += 1;
    else this.#count(id, path);
    return 204;
  }

  /** Every `failEvery`-th first attempt per hook: never five in a row, which would open the server's circuit. */
  #failsOnPurpose(path: string): boolean {
    const n = (this.#firstAttempts.get(path) ?? 0) + 1;
    this.#firstAttempts.set(path, n);
    return this.#failEvery > 0 && n % this.#failEvery === 0;
  }

  #count(id: string, path: string): void {
    const t = this.#tally;
    const at = nowMs();
    this.#answered.set(id, true);
    if (t.delivered === 0) t.first = at;
    t.last = at;
    t.delivered += 1;
    t.perHook[path] = (t.perHook[path] ?? 0) + 1;
  }
}

function runReceiver(): void {
  const receiver = new WebhookReceiver();
  serveReceiver<ReceiverCommand, Tally>(
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(receiver.receive(req, Buffer.concat(chunks))).end());
    },
    (c) => receiver.command(c),
  );
}

// ---------------------------------------------------------------------------

interface Options {
  deliveries: number;
  hooks: number;
  sendConcurrency: number;
  queue: 'memory' | 'redis';
  webhookConcurrency: number | undefined;
  failEvery: number;
  cluster: boolean;
  out: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, {
    deliveries: { type: 'string' },
    hooks: { type: 'string' },
    'send-concurrency': { type: 'string' },
    queue: { type: 'string' },
    'webhook-concurrency': { type: 'string' },
    'fail-every': { type: 'string' },
  });
  const hooks = intOption('hooks', values.hooks, 10);
  const failEvery = values['fail-every'] ? intOption('fail-every', values['fail-every'], 0) : 0;
  const refuse = (why: string): never => {
    process.stderr.write(`${why}\n`);
    process.exit(2);
  };
  if (hooks > MAX_HOOKS) refuse(`--hooks: a group has at most ${MAX_HOOKS} outgoing webhooks`);
  // Every first attempt failing would open the server's circuit for each hook (a minute after 5 failures in a row).
  if (failEvery === 1) refuse('--fail-every must be 2 or more');
  return {
    deliveries: intOption('deliveries', values.deliveries, 20_000),
    hooks,
    sendConcurrency: intOption('send-concurrency', values['send-concurrency'], 4),
    queue: queueOption(values.queue, values.cluster, 'webhook deliveries'),
    webhookConcurrency: values['webhook-concurrency']
      ? intOption('webhook-concurrency', values['webhook-concurrency'], DEFAULT_CONCURRENCY)
      : undefined,
    failEvery,
    cluster: values.cluster,
    out: values.out,
  };
}

/** Makes the hooks, all to the receiver; returns their ids and each path's secret. */
async function createHooks(base: string, owner: Account, group: BenchGroup, origin: string, count: number) {
  const ids: string[] = [];
  const secrets: Record<string, string> = {};
  const indexes = Array.from({ length: count }, (_, i) => i);
  await forEachLimited(indexes, 4, `creating ${count} webhooks`, async (i) => {
    const hook = await api<OutgoingWebhookWithSecret>(
      base,
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner.token,
      { url: `${origin}${hookPath(i)}`, name: `bench receiver ${i}` },
    );
    ids[i] = hook.id;
    secrets[hookPath(i)] = hook.secret;
  });
  return { ids, secrets };
}

/** What the hooks' delivery logs (the newest 50 each) said once the run was over. */
export interface LogSummary {
  entries: number;
  byStatus: Record<string, number>;
  /** Entries delivered after more than one attempt. */
  deliveredAfterRetry: number;
}

async function readDeliveryLogs(base: string, owner: Account, groupId: string, hookIds: string[]) {
  const summary: LogSummary = { entries: 0, byStatus: {}, deliveredAfterRetry: 0 };
  for (const id of hookIds) {
    const path = `/api/groups/${groupId}/webhooks/outgoing/${id}/deliveries`;
    for (const d of await api<WebhookDelivery[]>(base, 'GET', path, owner.token)) {
      summary.entries += 1;
      summary.byStatus[d.status] = (summary.byStatus[d.status] ?? 0) + 1;
      if (d.status === 'delivered' && d.attempts > 1) summary.deliveredAfterRetry += 1;
    }
  }
  return summary;
}

// ---------------------------------------------------------------------------

export interface WebhooksResult {
  queue: 'memory' | 'redis';
  hooks: number;
  messages: number;
  expected: number;
  /** Distinct deliveries answered 2xx. */
  received: number;
  missing: number;
  duplicates: number;
  /** Deliveries beyond a hook's messages, or to no hook's path. */
  unexpected: number;
  badSignatures: number;
  malformed: number;
  failEvery: number | null;
  answered500: number;
  /** Requests for a deliveryId seen before (the server's retries of the 500s, and any others). */
  repeats: number;
  requests: number;
  sends: { errors: number; errorSamples: string[]; seconds: number; latencyMs: Summary };
  arrivals: {
    firstMs: number;
    lastMs: number;
    /** First to last arrival. */
    seconds: number;
    deliveriesPerSecond: number | null;
    /** Deliveries over the time from the first send to the last arrival. */
    sendToLastPerSecond: number | null;
  };
  /** TCP connections the receiver saw over the whole run (the warm-up opens them). */
  connections: number;
  server: ReturnType<typeof rssFigures> & { rssSource: string; webhookConcurrency: number | string };
  deliveryLog: LogSummary;
  receiverCpuSeconds: number;
}

/** Missing and unexpected deliveries, hook by hook: each should have had every message once. */
function perHookGaps(perHook: Record<string, number>, hooks: number, messages: number) {
  let missing = 0;
  let unexpected = 0;
  const paths = new Set(Array.from({ length: hooks }, (_, i) => hookPath(i)));
  for (const path of paths) {
    const got = perHook[path] ?? 0;
    missing += Math.max(0, messages - got);
    unexpected += Math.max(0, got - messages);
  }
  for (const [path, got] of Object.entries(perHook)) if (!paths.has(path)) unexpected += got;
  return { missing, unexpected };
}

function arrivalRates(stats: ReceiverStats, t0: number): WebhooksResult['arrivals'] {
  const seconds = (stats.last - stats.first) / 1000;
  return {
    firstMs: round(stats.first - t0),
    lastMs: round(stats.last - t0),
    seconds: round(seconds, 3),
    deliveriesPerSecond: seconds > 0 ? Math.round(stats.delivered / seconds) : null,
    sendToLastPerSecond: stats.last > t0 ? Math.round(stats.delivered / ((stats.last - t0) / 1000)) : null,
  };
}

interface Measured {
  stats: ReceiverStats;
  burst: SendBurst;
  t0: number;
  rss: RssTrace;
  rssSource: string;
  deliveryLog: LogSummary;
}

function toResult(o: Options, messages: number, m: Measured): WebhooksResult {
  const { stats, burst } = m;
  return {
    queue: o.queue,
    hooks: o.hooks,
    messages,
    expected: messages * o.hooks,
    received: stats.delivered,
    ...perHookGaps(stats.perHook, o.hooks, messages),
    duplicates: stats.duplicates,
    badSignatures: stats.badSignatures,
    malformed: stats.malformed,
    failEvery: o.failEvery || null,
    answered500: stats.refused,
    repeats: stats.repeats,
    requests: stats.requests,
    sends: {
      errors: burst.errors,
      errorSamples: burst.errorSamples,
      seconds: round((burst.endedAt - m.t0) / 1000, 3),
      latencyMs: summarize(burst.latencies),
    },
    arrivals: arrivalRates(stats, m.t0),
    connections: stats.connections,
    server: {
      rssSource: m.rssSource,
      ...rssFigures(m.rss),
      webhookConcurrency: o.webhookConcurrency ?? `default (${DEFAULT_CONCURRENCY})`,
    },
    deliveryLog: m.deliveryLog,
    receiverCpuSeconds: round(stats.cpuMicros / 1e6, 2),
  };
}

const errorCount = (r: WebhooksResult) =>
  r.missing + r.duplicates + r.unexpected + r.badSignatures + r.malformed + r.sends.errors;

function printSummary(r: WebhooksResult): void {
  process.stdout.write(
    table([
      {
        queue: r.queue,
        expected: r.expected,
        received: r.received,
        missing: r.missing,
        duplicates: r.duplicates,
        'bad sig': r.badSignatures,
        'deliveries/s': r.arrivals.deliveriesPerSecond ?? 'n/a',
        'send→last /s': r.arrivals.sendToLastPerSecond ?? 'n/a',
        'send p50 ms': r.sends.latencyMs.p50,
        connections: r.connections,
        'RSS before MB': r.server.rssBeforeMiB,
        'peak MB': r.server.rssPeakMiB,
        'after MB': r.server.rssAfterMiB,
        errors: errorCount(r),
      },
    ]),
  );
  if (r.failEvery)
    process.stdout.write(
      `--fail-every ${r.failEvery}: ${r.answered500} first attempts answered 500, ${r.repeats} repeated requests; the hooks' logs show ${r.deliveryLog.deliveredAfterRetry} of their newest ${r.deliveryLog.entries} delivered after a retry\n`,
    );
  if (r.missing > 0 || r.duplicates > 0)
    process.stdout.write(`delivery: ${r.missing} missing, ${r.duplicates} duplicated of ${r.expected}\n`);
  if (errorCount(r) > r.missing + r.duplicates)
    process.stdout.write(
      `errors: unexpected ${r.unexpected}, bad signatures ${r.badSignatures}, malformed ${r.malformed}, failed sends ${r.sends.errors}${r.sends.errorSamples.length ? ` (${r.sends.errorSamples[0]})` : ''}\n`,
    );
}

type ReceiverProcess = Receiver<ReceiverCommand, Tally>;

/** What the burst runs against: a group whose hooks all point at the receiver, warmed up. */
interface Stage {
  base: string;
  owner: Account;
  groupId: string;
  hookIds: string[];
  send: (content: string) => Promise<unknown>;
}

const deliveredCount = (receiver: ReceiverProcess) => async () => (await receiver.ask({ type: 'stats' })).delivered;

async function setUp(o: Options, target: Target, receiver: ReceiverProcess, origin: string): Promise<Stage> {
  const base = target.gateways[0]!;
  const owner = (await new AccountPool(base).ensure(1))[0]!;
  const group = await BenchGroup.create(base, owner, 'webhooks');
  const hooks = await createHooks(base, owner, group, origin, o.hooks);
  await receiver.ask({ type: 'hooks', secrets: hooks.secrets });
  const send = (content: string) =>
    api(base, 'POST', `/api/converses/${group.converseId}/messages`, owner.token, { content });

  // Warm-up: one message through the whole path (code paths compiled, the receiver's connections opened).
  await send('webhooks benchmark (warm-up)');
  const warmed = await awaitCount(deliveredCount(receiver), o.hooks, 60_000);
  if (warmed < o.hooks) throw new Error(`warm-up: ${warmed} of ${o.hooks} deliveries arrived in 60 s`);
  await pause(1000);
  return { base, owner, groupId: group.id, hookIds: hooks.ids, send };
}

interface Run {
  result: WebhooksResult;
  rssOverTime: Array<[number, number]>;
  deliveredOverTime: Array<[number, number]>;
  receiverCpuMicros: number;
}

/** The measured burst: every message sent, then a bounded wait for every delivery. */
async function measure(o: Options, target: Target, receiver: ReceiverProcess, stage: Stage): Promise<Run> {
  const messages = Math.ceil(o.deliveries / o.hooks);
  const expected = messages * o.hooks;
  await receiver.ask({ type: 'measure', failEvery: o.failEvery });
  const serverMemory = serverRss(target, INTEGRATION_NODE);
  const sampler = new RssSampler(serverMemory.read, 200);
  await sampler.start();
  await pause(600); // a few readings before the burst

  const deliveredOverTime: Array<[number, number]> = [];
  const t0 = nowMs();
  const plan = Array.from({ length: messages }, (_, i) => `webhooks benchmark ${i}`);
  const burst = sendBurst(plan, o.sendConcurrency, stage.send);
  // Bounded: no arrival for 20 s after the sends (a retry comes about 10 s after its 500), or the deadline.
  await awaitArrivals({
    label: 'deliveries received',
    expected,
    count: deliveredCount(receiver),
    burst,
    deadline: Date.now() + 120_000 + 10 * expected, // two minutes, plus 10 ms per delivery
    onCount: (n) => deliveredOverTime.push([round((nowMs() - t0) / 1000, 2), n]),
  });
  await burst.finished;
  // Late or duplicate deliveries, and the memory once the burst is over.
  await pause(2000);
  const rss = await sampler.stop();
  const stats = await receiver.ask({ type: 'stats' });
  deliveredOverTime.push([round((nowMs() - t0) / 1000, 2), stats.delivered]);
  const deliveryLog = await readDeliveryLogs(stage.base, stage.owner, stage.groupId, stage.hookIds);
  return {
    result: toResult(o, messages, { stats, burst, t0, rss, rssSource: serverMemory.source, deliveryLog }),
    // The sampler's clock starts 600 ms before t0.
    rssOverTime: rssPoints(rss, 0.6),
    deliveredOverTime,
    receiverCpuMicros: stats.cpuMicros,
  };
}

export async function run(argv: string[]): Promise<void> {
  const o = parseOptions(argv);
  const load = new LoadCpu();
  const receiver: ReceiverProcess = new Receiver(fileURLToPath(import.meta.url), '--receiver', 'the webhook receiver');
  const origin = `http://127.0.0.1:${await receiver.port}`;
  let redis: RedisServerHandle | undefined;
  let target: Target | undefined;
  let measured: Run | undefined;
  try {
    if (o.queue === 'redis' && !o.cluster) redis = await startRedis();
    // OUTBOUND_ALLOW=127.0.0.1, which the receiver needs, is in every benchmark deployment's settings.
    target = await startTarget({
      cluster: o.cluster,
      env: {
        ...(o.webhookConcurrency ? { WEBHOOK_CONCURRENCY: String(o.webhookConcurrency) } : {}),
        ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:' } : {}),
      },
    });
    const messages = Math.ceil(o.deliveries / o.hooks);
    process.stdout.write(
      `webhooks: ${messages * o.hooks} deliveries = ${messages} messages × ${o.hooks} outgoing webhooks; queue: ${o.queue}; receiver ${origin}${o.failEvery ? `; 1 in ${o.failEvery} first attempts per hook answered 500` : ''}\n`,
    );
    measured = await measure(o, target, receiver, await setUp(o, target, receiver, origin));
    load.addChildren(measured.receiverCpuMicros, 1);
  } finally {
    receiver.close();
    await target?.stop();
    await redis?.stop();
  }
  const { result: r, rssOverTime, deliveredOverTime } = measured!;
  const t = target!;
  printSummary(r);
  writeResult(
    { benchmark: 'webhooks', target: t.mode, mongo: t.mongoKind, ...r },
    {
      out: o.out,
      load,
      chart: burstChart(
        `Outgoing webhooks: ${r.expected} deliveries to ${r.hooks} hooks (${t.mode}, ${r.queue} queue)`,
        rssOverTime,
        deliveredOverTime,
        r.expected,
      ),
    },
  );
}

if (import.meta.main && process.argv.includes('--receiver')) runReceiver();
