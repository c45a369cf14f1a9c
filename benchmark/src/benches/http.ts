// Keep-alive GETs of one path through the gateway (the platform started as an
// operator would) against the same answer from bare node:http in a process of
// its own, with the same load tool (autocannon, in this process), in the same
// run, alternating between the two. The path is /health unless `--path` names
// another; `--seed-public` first makes a web-public panel with messages, whose
// id `{panel}` in the path stands for (`--path /p/{panel}/feed.atom`). The bare
// server answers with the gateway's own status, headers and bytes for that
// path, fetched once. `--conditional` adds a run of requests that carry the
// answer's ETag, and reports how many were 304. Latencies are recorded per
// response at sub-millisecond precision (autocannon's own histogram keeps
// whole ms).
import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Group } from '@im/protocol';
import { AccountPool, api } from '../lib/api.ts';
import { benchArgs, intOption } from '../lib/args.ts';
import { startReferenceServer, type IpcChild } from '../lib/ipc-child.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, scrape } from '../lib/metrics.ts';
import { progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

// ---------------------------------------------------------------------------
// The bare server: what the gateway's /health answers, nothing else.

type BareMessage =
  | { type: 'ready'; port: number }
  | { type: 'cpu'; reqId: number; micros: number }
  | { type: 'answering'; reqId: number };

/** What the bare server answers: the gateway's answer for the path under test. */
interface Answer {
  path: string;
  headers: Record<string, string>;
  /** Base64 (IPC carries JSON). */
  body: string;
}

type BareRequest = { type: 'cpu' } | ({ type: 'answer' } & Answer);

function runBare(): void {
  // As the gateway's server (gateway.service.ts) and its sendJson (http/respond.ts), until told to
  // answer with the bytes the gateway gives for the path under test.
  const health = Buffer.from(JSON.stringify({ status: 'ok' }));
  let answer: { path: string; headers: Record<string, string>; body: Buffer } = {
    path: '/health',
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(health.length) },
    body: health,
  };
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    if (req.method === 'GET' && req.url === answer.path) {
      res.writeHead(200, answer.headers);
      res.end(answer.body);
      return;
    }
    res.writeHead(404).end();
  });
  process.on('message', (m: BareRequest & { reqId: number }) => {
    if (m.type === 'answer') {
      answer = { path: m.path, headers: m.headers, body: Buffer.from(m.body, 'base64') };
      process.send!({ type: 'answering', reqId: m.reqId } satisfies BareMessage);
      return;
    }
    const cpu = process.cpuUsage();
    process.send!({ type: 'cpu', reqId: m.reqId, micros: cpu.user + cpu.system } satisfies BareMessage);
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies BareMessage);
  });
}

class BareServer {
  readonly #ipc: IpcChild<BareRequest, BareMessage>;
  readonly base: Promise<string>;

  constructor() {
    ({ ipc: this.#ipc, base: this.base } = startReferenceServer<BareRequest, BareMessage>(
      fileURLToPath(import.meta.url),
      ['--bare'],
      'the bare server',
    ));
  }

  /** The server process's CPU so far, in seconds. */
  async cpuSeconds(): Promise<number> {
    const reply = await this.#ipc.call<Extract<BareMessage, { type: 'cpu' }>>({ type: 'cpu' }, 10_000);
    return reply.micros / 1e6;
  }

  /** From now on, GET `answer.path` gets exactly these headers and bytes. */
  async answerWith(answer: Answer): Promise<void> {
    await this.#ipc.call({ type: 'answer', ...answer }, 10_000);
  }

  close(): void {
    this.#ipc.close();
  }
}

// ---------------------------------------------------------------------------

type Which = 'gateway' | 'bare';

interface RunResult {
  which: Which;
  round: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU over the run, as a share of one core. */
  serverCpuShare: number | null;
  /** Server CPU per request (µs): steadier than req/s on a machine shared with other work. */
  serverCpuUsPerRequest: number | null;
  /** This process's (autocannon's) CPU over the run, as a share of one core. */
  clientCpuShare: number;
}

interface Side {
  which: Which;
  url: string;
  cpuSeconds: () => Promise<number | null>;
}

interface LoadOptions {
  seconds: number;
  connections: number;
  pipelining: number;
  headers: Record<string, string>;
}

/** One autocannon run; `latencies` (ms) collects every 2xx response's time, `statuses` counts each status. */
async function load(
  side: Side,
  options: LoadOptions,
  label: string,
  latencies?: number[],
  statuses?: Map<number, number>,
): Promise<{ result: autocannon.Result; seconds: number; serverCpu: number | null; clientCpu: number }> {
  const bar = progress(label, options.seconds);
  const cpuBefore = await side.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  try {
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: side.url,
          connections: options.connections,
          pipelining: options.pipelining,
          duration: options.seconds,
          headers: options.headers,
          timeout: 10,
        },
        (err: unknown, res: autocannon.Result) =>
          err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
      );
      instance.on('tick', () => bar.increment());
      if (latencies || statuses)
        instance.on('response', (_client, status, _bytes, ms) => {
          if (latencies && status >= 200 && status < 300) latencies.push(ms);
          statuses?.set(status, (statuses.get(status) ?? 0) + 1);
        });
    });
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    const cpuAfter = await side.cpuSeconds();
    return {
      result,
      seconds,
      clientCpu: (client.user + client.system) / 1e6 / seconds,
      serverCpu: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / seconds : null,
    };
  } finally {
    bar.stop();
  }
}

/** Response headers that matter for the comparison (Date differs by nature), and the body's size and start. */
async function headersOf(url: string, sent: Record<string, string>): Promise<Record<string, string>> {
  const { status, headers, body } = await rawGet(url, sent);
  const kept = Object.fromEntries(
    Object.entries(headers).filter(([k]) => k !== 'date' && k !== 'connection' && k !== 'keep-alive'),
  );
  return { status: String(status), bytes: String(body.length), body: body.subarray(0, 60).toString('latin1'), ...kept };
}

/** A GET with exactly the given headers, the body as it came (fetch would decompress it). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
          ),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
  });
}

/** A public group with a web-public panel holding `messages` messages: the panel's id. */
async function seedPublicPanel(base: string, messages: number): Promise<string> {
  const [author] = await new AccountPool(base).ensure(1);
  const { token } = author!;
  // A display name that needs escaping, as real ones may.
  await api(base, 'PATCH', '/api/users/me', token, { nickname: 'Bench <author> & co' });
  const group = await api<Group>(base, 'POST', '/api/groups', token, { name: 'Benchmark news' });
  await api(base, 'PATCH', `/api/groups/${group.id}`, token, {
    visibility: 'public',
    description: 'Messages for the HTTP benchmark',
  });
  const panel = group.panels[0]!;
  await api(base, 'PATCH', `/api/groups/${group.id}/panels/${panel.id}`, token, { webPublic: true });
  for (let i = 1; i <= messages; i += 1)
    await api(base, 'POST', `/api/converses/${panel.converseId}/messages`, token, {
      content: `Message **${i}** of the benchmark: a line of text about as long as a chat message, with [a link](https://example.org/${i}) & "quotes".`,
    });
  return panel.id;
}

/** Percentiles for the chart, and how each is placed on a log axis: 1/(1-p). */
const CHART_PERCENTILES = [50, 75, 90, 95, 99, 99.5, 99.9, 99.99];

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    pipelining: { type: 'string' },
    rounds: { type: 'string' },
    path: { type: 'string' },
    'seed-public': { type: 'boolean' },
    messages: { type: 'string' },
    'accept-encoding': { type: 'string' },
    conditional: { type: 'boolean' },
  });
  const seconds = intOption('seconds', values.seconds, 10);
  const connections = intOption('connections', values.connections, 50);
  const pipelining = intOption('pipelining', values.pipelining, 1);
  const rounds = intOption('rounds', values.rounds, 2);
  const seedMessages = intOption('messages', values.messages, 50);
  const sentHeaders: Record<string, string> = values['accept-encoding']
    ? { 'accept-encoding': values['accept-encoding'] }
    : {};
  const options: LoadOptions = { seconds, connections, pipelining, headers: sentHeaders };
  let path = values.path ?? '/health';
  if (path.includes('{panel}') && !values['seed-public']) throw new Error('--path with {panel} needs --seed-public');
  let conditional:
    { requests: number; notModified: number; ok: number; other: number; requestsPerSecond: number } | undefined;
  const loadCpu = new LoadCpu();

  const bare = new BareServer();
  let target: Target | undefined;
  const runs: RunResult[] = [];
  const latencies: Record<Which, number[]> = { gateway: [], bare: [] };
  let headers: Record<Which, Record<string, string>> | undefined;
  try {
    const bareBase = await bare.base;
    target = await startTarget({ cluster: values.cluster });
    const gatewayBase = target.gateways[0]!;
    if (values['seed-public']) {
      const panelId = await seedPublicPanel(gatewayBase, seedMessages);
      path = path.replace('{panel}', panelId);
      process.stdout.write(`seeded web-public panel ${panelId} with ${seedMessages} messages; path ${path}\n`);
    }
    const gatewayAnswer = await rawGet(`${gatewayBase}${path}`, sentHeaders);
    if (gatewayAnswer.status !== 200) throw new Error(`GET ${path}: ${gatewayAnswer.status} from the gateway`);
    const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...answerHeaders } = gatewayAnswer.headers;
    await bare.answerWith({ path, headers: answerHeaders, body: gatewayAnswer.body.toString('base64') });
    const sides: Record<Which, Side> = {
      gateway: {
        which: 'gateway',
        url: `${gatewayBase}${path}`,
        cpuSeconds: async () => cpuSeconds(await scrape(gatewayBase)),
      },
      bare: { which: 'bare', url: `${bareBase}${path}`, cpuSeconds: () => bare.cpuSeconds() },
    };
    headers = {
      gateway: await headersOf(sides.gateway.url, sentHeaders),
      bare: await headersOf(sides.bare.url, sentHeaders),
    };
    const differ = [...new Set([...Object.keys(headers.gateway), ...Object.keys(headers.bare)])].filter(
      (k) => headers!.gateway[k] !== headers!.bare[k],
    );
    if (differ.length > 0)
      process.stdout.write(
        `headers differ: ${differ.map((k) => `${k}: gateway ${headers!.gateway[k] ?? '-'} / bare ${headers!.bare[k] ?? '-'}`).join('; ')}\n`,
      );
    else process.stdout.write(`same status, body and headers from both: ${JSON.stringify(headers.bare)}\n`);

    const warm = { ...options, seconds: Math.min(2, seconds) };
    for (const which of ['bare', 'gateway'] as const) await load(sides[which], warm, `warm-up ${which}`);
    for (let r = 0; r < rounds; r += 1) {
      // ABBA: each side goes first as often as second.
      const order: Which[] = r % 2 === 0 ? ['bare', 'gateway'] : ['gateway', 'bare'];
      for (const which of order) {
        const mine: number[] = [];
        const {
          result,
          seconds: took,
          serverCpu,
          clientCpu,
        } = await load(sides[which], options, `round ${r + 1}/${rounds} ${which}`, mine);
        mine.sort((a, b) => a - b);
        for (const ms of mine) latencies[which].push(ms);
        runs.push({
          which,
          round: r + 1,
          seconds: round(took, 2),
          requests: mine.length,
          requestsPerSecond: Math.round(mine.length / result.duration),
          p50Ms: round(percentile(mine, 50), 3),
          p99Ms: round(percentile(mine, 99), 3),
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          serverCpuShare: serverCpu === null ? null : round(serverCpu, 2),
          serverCpuUsPerRequest:
            serverCpu === null ? null : round(((serverCpu * took) / Math.max(1, mine.length)) * 1e6, 1),
          clientCpuShare: round(clientCpu, 2),
        });
        const last = runs.at(-1)!;
        process.stdout.write(
          `round ${last.round} ${which}: ${last.requestsPerSecond} req/s, p50 ${last.p50Ms} ms, p99 ${last.p99Ms} ms, server CPU ${last.serverCpuShare ?? '?'} of a core, autocannon ${last.clientCpuShare}${last.errors + last.non2xx > 0 ? `, ${last.errors} errors, ${last.non2xx} non-2xx` : ''}\n`,
        );
      }
    }
    if (values.conditional) {
      // Revalidation as a CDN or feed reader does it: If-None-Match with the ETag it holds.
      const etag = gatewayAnswer.headers.etag;
      if (!etag) throw new Error(`GET ${path} has no ETag: --conditional has nothing to send`);
      const statuses = new Map<number, number>();
      const { result } = await load(
        sides.gateway,
        { ...options, headers: { ...sentHeaders, 'if-none-match': etag } },
        'conditional gateway',
        undefined,
        statuses,
      );
      const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
      const notModified = statuses.get(304) ?? 0;
      const ok = statuses.get(200) ?? 0;
      conditional = {
        requests,
        notModified,
        ok,
        other: requests - notModified - ok,
        requestsPerSecond: Math.round(requests / result.duration),
      };
      process.stdout.write(
        `conditional requests: ${conditional.requestsPerSecond} req/s, ${notModified} of ${requests} answered 304 (${round((100 * notModified) / Math.max(1, requests), 2)}%)\n`,
      );
    }
  } finally {
    bare.close();
    await target?.stop();
  }
  const mode = target!.mode;
  const mongoKind = target!.mongoKind;

  const summary = (['bare', 'gateway'] as const).map((which) => {
    const mine = runs.filter((r) => r.which === which);
    const all = latencies[which].sort((a, b) => a - b);
    return {
      which,
      requestsPerSecond: Math.round(mine.reduce((s, r) => s + r.requestsPerSecond, 0) / Math.max(1, mine.length)),
      perRound: mine.map((r) => r.requestsPerSecond),
      p50Ms: round(percentile(all, 50), 3),
      p99Ms: round(percentile(all, 99), 3),
      p999Ms: round(percentile(all, 99.9), 3),
      p100Ms: round(percentile(all, 100), 3),
      errors: mine.reduce((s, r) => s + r.errors + r.non2xx, 0),
      serverCpuShare: round(mine.reduce((s, r) => s + (r.serverCpuShare ?? NaN), 0) / Math.max(1, mine.length), 2),
      clientCpuShare: round(mine.reduce((s, r) => s + r.clientCpuShare, 0) / Math.max(1, mine.length), 2),
      serverCpuUsPerRequest: round(
        mine.reduce((s, r) => s + (r.serverCpuUsPerRequest ?? NaN), 0) / Math.max(1, mine.length),
        1,
      ),
      percentiles: CHART_PERCENTILES.map((p) => ({ p, ms: round(percentile(all, p), 3) })),
    };
  });
  const [bareSum, gatewaySum] = summary as [(typeof summary)[0], (typeof summary)[0]];
  const ratio = round(gatewaySum.requestsPerSecond / bareSum.requestsPerSecond, 3);
  process.stdout.write(
    table(
      summary.map((s) => ({
        server: s.which === 'gateway' ? `gateway (${mode})` : 'bare node:http',
        'req/s': s.requestsPerSecond,
        'per round': s.perRound.join(' / '),
        'p50 ms': s.p50Ms,
        'p99 ms': s.p99Ms,
        'p99.9 ms': s.p999Ms,
        'server CPU (cores)': s.serverCpuShare,
        'server µs/req': s.serverCpuUsPerRequest,
        'autocannon CPU': s.clientCpuShare,
        errors: s.errors,
      })),
    ),
  );
  const cpuRatio = round(bareSum.serverCpuUsPerRequest / gatewaySum.serverCpuUsPerRequest, 3);
  process.stdout.write(
    `gateway / bare: ${ratio} in req/s (target ≥ 0.7${ratio < 0.7 ? ': NOT reached' : ''}); ${cpuRatio} in server CPU per request (bare / gateway)\n`,
  );
  writeResult(
    {
      benchmark: 'http',
      path,
      acceptEncoding: sentHeaders['accept-encoding'] ?? null,
      seededMessages: values['seed-public'] ? seedMessages : null,
      conditional: conditional ?? null,
      target: mode,
      mongo: mongoKind,
      tool: 'autocannon (in the benchmark process)',
      seconds,
      connections,
      pipelining,
      rounds,
      ratio,
      cpuPerRequestRatio: cpuRatio,
      summary,
      runs,
      headers,
    },
    {
      out: values.out,
      load: loadCpu,
      chart: {
        title: `GET ${path.replace(/[0-9a-f]{24}/, '{panel}')}, ${connections} connections${pipelining > 1 ? `, pipelining ${pipelining}` : ''}: latency by percentile`,
        xLabel: 'percentile, as 1/(1-p) (log): 10 = p90, 100 = p99, 1k = p99.9',
        yLabel: 'latency (ms)',
        logX: true,
        series: summary.map((s) => ({
          name: s.which === 'gateway' ? `gateway (${mode})` : 'bare node:http',
          points: s.percentiles.map(({ p, ms }): [number, number] => [1 / (1 - p / 100), ms]),
        })),
      },
    },
  );
}

if (import.meta.main && process.argv.includes('--bare')) runBare();
