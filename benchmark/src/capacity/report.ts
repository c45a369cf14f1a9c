// The capacity run's report, like a release performance report: the verdict
// and the thresholds at the top, then charts over time (one SVG each, beside
// the Markdown), then what was run. renderCapacityReport takes a
// CapacityResult only, so other reports (a comparison of two releases) can
// reuse its parts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { lineChart, type ChartSpec, type Series } from '../lib/svg-chart.ts';
import type { CapacityResult, CapacitySample } from './types.ts';

export interface RenderedChart {
  /** Short name: the SVG is `<prefix>-<name>.svg`. */
  name: string;
  title: string;
  svg: string;
}

export interface RenderedReport {
  markdown: string;
  charts: RenderedChart[];
}

const THRESHOLD_LABELS: Record<string, string> = {
  errorRate: 'error rate',
  requestP99Ms: 'request time p99',
  requestAvgMs: 'request time average',
  broadcastP99Ms: 'broadcast p99 (send to live delivery)',
  missedMessages: 'missed live deliveries (gap open past the grace period)',
  lostMessages: 'lost messages (still missing after the final sync)',
};

const num = (n: number, digits = 1): string =>
  Number.isFinite(n) ? (+n.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits }) : '–';
const ms = (n: number): string => (Number.isFinite(n) ? `${num(n, n < 10 ? 1 : 0)} ms` : '–');
const pct = (n: number): string => (Number.isFinite(n) ? `${num(n * 100, 3)}%` : '–');

function thresholdValue(threshold: string, value: number): string {
  if (threshold === 'errorRate') return pct(value);
  if (threshold.endsWith('Ms')) return ms(value);
  return num(value, 0);
}

export const deploymentName = (r: Pick<CapacityResult, 'deployment'>): string =>
  r.deployment === 'cluster' ? 'local cluster (2 gateways, 2 service nodes, NATS, Redis)' : 'single instance';

/** The charts over time, as specs (for other reports to draw their own way or overlay two runs). */
export function capacityChartSpecs(result: CapacityResult): Array<{ name: string; spec: ChartSpec }> {
  const minutes = (result.samples.at(-1)?.t ?? 0) > 900;
  const x = (s: CapacitySample) => (minutes ? s.t / 60 : s.t);
  const xLabel = minutes ? 'minutes since the load began' : 'seconds since the load began';
  const series = (name: string, pick: (s: CapacitySample) => number): Series => ({
    name,
    points: result.samples.map((s) => [x(s), pick(s)]),
  });
  const th = result.thresholds;
  // A limit far above the data would flatten it: drawn only once the data comes within a quarter of it.
  const spec = (title: string, yLabel: string, list: Series[], reference?: ChartSpec['reference']): ChartSpec => {
    const top = Math.max(0, ...list.flatMap((l) => l.points.map(([, y]) => y)).filter(Number.isFinite));
    return {
      title,
      xLabel,
      yLabel,
      series: list,
      ...(reference && top >= reference.y / 4 ? { reference } : {}),
    };
  };
  const charts: Array<{ name: string; spec: ChartSpec }> = [
    {
      name: 'users',
      spec: spec('Simulated users', 'users', [
        series('users', (s) => s.users),
        series('connected', (s) => s.connectedUsers),
      ]),
    },
    {
      name: 'requests',
      spec: spec('Requests per second', 'requests/s', [series('requests/s', (s) => s.requestsPerSecond)]),
    },
    {
      name: 'request-time',
      spec: spec(
        'Request time (HTTP and socket acks)',
        'ms',
        [series('p99', (s) => s.requestP99Ms), series('average', (s) => s.requestAvgMs)],
        { y: th.requestP99Ms, label: `p99 limit ${th.requestP99Ms} ms` },
      ),
    },
    {
      name: 'store-time',
      spec: spec('Store time (message:send to its ack)', 'ms', [
        series('p99', (s) => s.storeP99Ms),
        series('average', (s) => s.storeAvgMs),
      ]),
    },
    {
      name: 'broadcast',
      spec: spec(
        'Broadcast: send to live delivery at the other members',
        'ms',
        [series('p99', (s) => s.broadcastP99Ms), series('average', (s) => s.broadcastAvgMs)],
        { y: th.broadcastP99Ms, label: `p99 limit ${th.broadcastP99Ms} ms` },
      ),
    },
    {
      name: 'errors',
      spec: spec('Errors', 'error rate (%)', [series('error rate', (s) => s.errorRate * 100)], {
        y: th.errorRate * 100,
        label: `limit ${th.errorRate * 100}%`,
      }),
    },
    {
      name: 'cpu',
      spec: spec('CPU', 'cores', [
        series('server', (s) => s.cpuCores),
        ...(result.samples.some((s) => Number.isFinite(s.dbCpuCores)) ? [series('database', (s) => s.dbCpuCores)] : []),
        series('load generator', (s) => s.loadCpuCores),
      ]),
    },
    {
      name: 'memory',
      spec: spec('Server memory', 'MiB', [series('heap used', (s) => s.heapMiB), series('RSS', (s) => s.rssMiB)]),
    },
    {
      name: 'event-loop',
      spec: spec('Server event-loop delay (p99 per sample)', 'ms', [series('p99', (s) => s.eventLoopDelayMs)]),
    },
    {
      name: 'sockets',
      spec: spec('Open sockets (server side)', 'sockets', [series('sockets', (s) => s.sockets)]),
    },
  ];
  return charts;
}

/** The Markdown's summary part: verdict, thresholds, key figures (reusable in a comparison). */
export function summaryMarkdown(result: CapacityResult): string {
  const s = result.summary;
  const lines: string[] = [];
  const verdict =
    result.mode === 'unbounded'
      ? `**Supported users: ${result.supportedUsers.toLocaleString('en-US')}**${result.converged ? '' : ' (not converged)'}.`
      : `**Bounded run: ${result.supportedUsers.toLocaleString('en-US')} users for ${num(result.options.durationSeconds, 0)} s.**`;
  lines.push(`${verdict} ${result.decision}`, '');
  lines.push(
    `Figures over ${num(result.summaryFrom, 0)}-${num(result.summaryTo, 0)} s of the run` +
      (result.mode === 'unbounded' ? ` (at ${result.supportedUsers} users)` : '') +
      '.',
    '',
  );
  lines.push('| threshold | value | limit | held |', '|---|---|---|---|');
  for (const c of result.checks) {
    lines.push(
      `| ${THRESHOLD_LABELS[c.threshold] ?? c.threshold} | ${thresholdValue(c.threshold, c.value)} | ` +
        `${c.threshold === 'lostMessages' ? '0' : `≤ ${thresholdValue(c.threshold, c.limit)}`} | ${c.held ? 'yes' : '**no**'} |`,
    );
  }
  lines.push('', '| figure | value |', '|---|---|');
  const rows: Array<[string, string]> = [
    ['users (connected)', `${num(s.users, 0)} (${num(s.connectedUsers, 0)})`],
    ['requests per second', num(s.requestsPerSecond)],
    ['requests (errors)', `${s.requests.toLocaleString('en-US')} (${s.errors})`],
    ['request time average / p99', `${ms(s.requestAvgMs)} / ${ms(s.requestP99Ms)}`],
    ['store time average / p99', `${ms(s.storeAvgMs)} / ${ms(s.storeP99Ms)}`],
    ['broadcast average / p99', `${ms(s.broadcastAvgMs)} / ${ms(s.broadcastP99Ms)}`],
    ['live deliveries per second', num(s.deliveriesPerSecond)],
    ['missed / lost messages (whole run)', `${result.missedMessages} / ${s.lostMessages}`],
    ['server CPU (cores, mean)', num(s.cpuCores, 2)],
    ['database CPU (cores, mean)', num(s.dbCpuCores, 2)],
    ['server heap / RSS (MiB, mean)', `${num(s.heapMiB, 0)} / ${num(s.rssMiB, 0)}`],
    ['event-loop delay p99 (worst sample)', ms(s.eventLoopDelayMs)],
    ['open sockets (mean)', num(s.sockets, 0)],
    [
      'load generator CPU',
      `${num(result.loadGenerator.shareOfOneCore * 100, 0)}% of one core (${result.loadGenerator.processes} processes)`,
    ],
  ];
  for (const [k, v] of rows) lines.push(`| ${k} | ${v} |`);
  if (result.breaks.length > 0) {
    lines.push('', 'Thresholds that broke:', '');
    for (const b of result.breaks)
      lines.push(`- ${num(b.t, 0)} s, ${b.users} users: ${b.threshold} ${thresholdValue(b.threshold, b.value)}`);
  }
  return lines.join('\n');
}

export function renderCapacityReport(result: CapacityResult, chartPrefix: string): RenderedReport {
  const charts = capacityChartSpecs(result).map(({ name, spec }) => ({
    name,
    title: spec.title,
    svg: lineChart(spec),
  }));
  const lines: string[] = [];
  lines.push(
    `# Capacity: ${result.mode}, ${deploymentName(result)}`,
    '',
    `Commit ${result.commit}, ${String(result.machine.date ?? '')}. ${String(result.machine.cores ?? '?')} cores (${String(result.machine.cpuModel ?? '?')}), ${String(result.machine.memoryGiB ?? '?')} GiB, Node ${String(result.machine.node ?? '?')}; database: ${result.mongoKind}.`,
    '',
    summaryMarkdown(result),
    '',
    '## Requests by kind',
    '',
    '| kind | count | errors | average | p99 |',
    '|---|---|---|---|---|',
  );
  for (const [kind, k] of Object.entries(result.requestsByKind))
    lines.push(`| ${kind} | ${k.count.toLocaleString('en-US')} | ${k.errors} | ${ms(k.avgMs)} | ${ms(k.p99Ms)} |`);
  lines.push('', 'Actions started over the whole run:', '');
  lines.push(
    Object.entries(result.actions)
      .map(([a, n]) => `${a} ${n.toLocaleString('en-US')}`)
      .join(', ') || 'none',
  );
  if (result.errorSamples.length > 0) {
    lines.push('', 'Errors, for example:', '');
    for (const e of result.errorSamples) lines.push(`- \`${e.replace(/`/g, "'")}\``);
  }
  if (result.lostSamples.length > 0) {
    lines.push('', 'Lost messages, for example:', '');
    for (const e of result.lostSamples) lines.push(`- ${e}`);
  }
  if (result.mode === 'unbounded' && result.levels.length > 0) {
    lines.push('', '## Levels', '', '| users | from | to | outcome |', '|---|---|---|---|');
    for (const l of result.levels)
      lines.push(`| ${l.users} | ${num(l.from, 0)} s | ${num(l.to, 0)} s | ${l.outcome} |`);
  }
  lines.push('', '## Over time', '');
  for (const c of charts) lines.push(`![${c.title}](${chartPrefix}-${c.name}.svg)`, '');
  const o = result.options;
  lines.push(
    '## Configuration',
    '',
    '| setting | value |',
    '|---|---|',
    `| mode | ${result.mode} |`,
    `| deployment | ${deploymentName(result)} |`,
    result.mode === 'bounded'
      ? `| users, duration | ${o.users}, ${o.durationSeconds} s |`
      : `| first level, step, step time, bound | ${o.users} users, +${o.stepUsers}, ${o.stepSeconds} s, ${o.durationSeconds} s |`,
    `| window, sample, settle | ${o.windowSeconds} s, ${o.sampleSeconds} s, ${o.settleSeconds} s |`,
    `| client processes | ${o.processes} |`,
    `| dataset | ${result.dataset.users.toLocaleString('en-US')} users, ${result.dataset.groups} groups, ${result.dataset.messages.toLocaleString('en-US')} messages, ${result.dataset.dms.toLocaleString('en-US')} DMs, seed ${result.dataset.seed} |`,
    `| server checkout | ${o.serverRoot ?? 'this one'} (${result.commit}) |`,
    `| run time | ${num(result.seconds, 0)} s |`,
    '',
    `Configuration file \`${basename(o.configPath)}\`:`,
    '',
    '```json',
    JSON.stringify(result.config, null, 2),
    '```',
    '',
  );
  return { markdown: lines.join('\n'), charts };
}

/** Writes the Markdown and one SVG per chart beside it (`<name>-<chart>.svg`); returns the paths. */
export function writeCapacityReport(
  result: CapacityResult,
  markdownPath: string,
): { markdown: string; charts: string[] } {
  const dir = dirname(markdownPath);
  const prefix = basename(markdownPath).replace(/\.md$/, '');
  const report = renderCapacityReport(result, prefix);
  mkdirSync(dir, { recursive: true });
  const charts = report.charts.map((c) => {
    const file = join(dir, `${prefix}-${c.name}.svg`);
    writeFileSync(file, c.svg);
    return file;
  });
  writeFileSync(markdownPath, report.markdown);
  return { markdown: markdownPath, charts };
}
