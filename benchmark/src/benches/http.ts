// Keep-alive GET /health through the gateway (the platform started as an
// operator would) against the same answer from bare node:http in a process of
// its own, with the same load tool (autocannon, in this process), in the same
// run, alternating between the two. Latencies are recorded per response at
// sub-millisecond precision (autocannon's own histogram keeps whole ms).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchArgs, intOption } from '../lib/args.ts';
import { IpcChild } from '../lib/ipc-child.ts';
import { LoadCpu } from '../lib/load-cpu.ts';
import { cpuSeconds, scrape } from '../lib/metrics.ts';
import { progress } from '../lib/progress.ts';
import { table, writeResult } from '../lib/report.ts';
import { percentile, round } from '../lib/stats.ts';
import { startTarget, type Target } from '../lib/target.ts';

// ---------------------------------------------------------------------------
// The bare server: what the gateway's /health answers, nothing else.

type BareMessage = { type: 'ready'; port: number } | { type: 'cpu'; reqId: number; micros: number };

function runBare(): void {
  // As the gateway's server (gateway.service.ts) and its sendJson (http/respond.ts).
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      const payload = JSON.stringify({ status: 'ok' });
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
      return;
    }
    res.writeHead(404).end();
  });
  process.on('message', (m: { type: 'cpu'; reqId: number }) => {
    const cpu = process.cpuUsage();
    process.send!({ type: 'cpu', reqId: m.reqId, micros: cpu.user + cpu.system } satisfies BareMessage);
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies BareMessage);
  });
}

class BareServer {
  readonly #ipc: IpcChild<{ type: 'cpu' }, BareMessage>;
  readonly base: Promise<string>;

  constructor() {
    // Started like the platform: the same Node, no extra flags, SERVER_NODE_OPTIONS if set, and a
    // session of its own (detached), as the test kit starts servers: with the kernel's autogroup
    // scheduling, a child in our session would share one CPU share with autocannon.
    let ready: (base: string) => void = () => undefined;
    this.#ipc = new IpcChild(fileURLToPath(import.meta.url), ['--bare'], {
      detached: true,
      execArgv: [],
      env: { ...process.env, NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '' },
      onMessage: (m) => {
        if (m.type === 'ready') ready(`http://127.0.0.1:${m.port}`);
      },
    });
    this.base = new Promise((resolve, reject) => {
      ready = resolve;
      this.#ipc.child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
    });
  }

  /** The server process's CPU so far, in seconds. */
  async cpuSeconds(): Promise<number> {
    const reply = await this.#ipc.call<Extract<BareMessage, { type: 'cpu' }>>({ type: 'cpu' }, 10_000);
    return reply.micros / 1e6;
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

/** One autocannon run; `latencies` (ms) collects every 2xx response's time. */
async function load(
  side: Side,
  options: { seconds: number; connections: number; pipelining: number },
  label: string,
  latencies?: number[],
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
          timeout: 10,
        },
        (err: unknown, res: autocannon.Result) =>
          err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res),
      );
      instance.on('tick', () => bar.increment());
      if (latencies)
        instance.on('response', (_client, status, _bytes, ms) => {
          if (status >= 200 && status < 300) latencies.push(ms);
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

/** Response headers that matter for the comparison (Date differs by nature). */
async function headersOf(url: string): Promise<Record<string, string>> {
  const res = await fetch(url);
  const body = await res.text();
  const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date'));
  return { status: String(res.status), body, ...headers };
}

/** Percentiles for the chart, and how each is placed on a log axis: 1/(1-p). */
const CHART_PERCENTILES = [50, 75, 90, 95, 99, 99.5, 99.9, 99.99];

export async function run(argv: string[]): Promise<void> {
  const values = benchArgs(argv, {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    pipelining: { type: 'string' },
    rounds: { type: 'string' },
  });
  const seconds = intOption('seconds', values.seconds, 10);
  const connections = intOption('connections', values.connections, 50);
  const pipelining = intOption('pipelining', values.pipelining, 1);
  const rounds = intOption('rounds', values.rounds, 2);
  const options = { seconds, connections, pipelining };
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
    const sides: Record<Which, Side> = {
      gateway: {
        which: 'gateway',
        url: `${gatewayBase}/health`,
        cpuSeconds: async () => cpuSeconds(await scrape(gatewayBase)),
      },
      bare: { which: 'bare', url: `${bareBase}/health`, cpuSeconds: () => bare.cpuSeconds() },
    };
    headers = { gateway: await headersOf(sides.gateway.url), bare: await headersOf(sides.bare.url) };
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
        title: `GET /health, ${connections} connections${pipelining > 1 ? `, pipelining ${pipelining}` : ''}: latency by percentile`,
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
