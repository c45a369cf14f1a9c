// The comparison report of two releases: a table of supported users and key
// latencies with each delta and verdict, then each capacity chart of A and B
// side by side, then what was run.
import { lineChart } from '../lib/svg-chart.ts';
import { capacityChartSpecs } from './report.ts';
import type { CapacityResult } from './types.ts';
import { compareRuns, type Better, type Verdict } from './verdict.ts';

export interface ComparedRelease {
  label: 'A' | 'B';
  ref: string;
  commit: string;
  runs: { bounded: CapacityResult[]; unbounded: CapacityResult[] };
}

interface Figure {
  mode: 'bounded' | 'unbounded';
  name: string;
  unit: string;
  better: Better;
  /** The smallest difference that means something for this figure (timer and sampling granularity). */
  resolution: number;
  read: (r: CapacityResult) => number;
}

type SummaryKey = {
  [K in keyof CapacityResult['summary']]: CapacityResult['summary'][K] extends number ? K : never;
}[keyof CapacityResult['summary']];

/** A figure of the run's summary; lower is better unless said. */
const summaryFigure = (
  mode: Figure['mode'],
  name: string,
  key: SummaryKey,
  unit: string,
  resolution: number,
  better: Better = 'lower',
): Figure => ({ mode, name, unit, better, resolution, read: (r) => r.summary[key] });

/** What the table compares: supported users first, then the latencies and costs of the fixed load. */
const FIGURES: Figure[] = [
  {
    mode: 'unbounded',
    name: 'supported users',
    unit: '',
    better: 'higher',
    resolution: 0,
    read: (r) => r.supportedUsers,
  },
  summaryFigure('unbounded', 'request p99 at that level', 'requestP99Ms', 'ms', 2),
  summaryFigure('bounded', 'requests/s', 'requestsPerSecond', '', 0.5, 'higher'),
  summaryFigure('bounded', 'request average', 'requestAvgMs', 'ms', 1),
  summaryFigure('bounded', 'request p99', 'requestP99Ms', 'ms', 2),
  summaryFigure('bounded', 'store average', 'storeAvgMs', 'ms', 1),
  summaryFigure('bounded', 'store p99', 'storeP99Ms', 'ms', 2),
  summaryFigure('bounded', 'broadcast p99', 'broadcastP99Ms', 'ms', 2),
  summaryFigure('bounded', 'server CPU', 'cpuCores', 'cores', 0.02),
  summaryFigure('bounded', 'server heap', 'heapMiB', 'MiB', 2),
  summaryFigure('bounded', 'event-loop delay p99', 'eventLoopDelayMs', 'ms', 1),
];

export interface FigureVerdict extends Verdict {
  mode: 'bounded' | 'unbounded';
  figure: string;
  a: number[];
  b: number[];
}

export interface ComparisonReport {
  markdown: string;
  charts: Array<{ file: string; svg: string }>;
  verdicts: FigureVerdict[];
  /** One paragraph for the terminal. */
  summary: string;
}

const fmt = (n: number): string =>
  Number.isFinite(n) ? (+n.toFixed(n >= 100 ? 0 : 1)).toLocaleString('en-US', { maximumFractionDigits: 1 }) : '–';
const mean = (v: number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
const signed = (delta: number): string =>
  Number.isFinite(delta) ? `${delta >= 0 ? '+' : ''}${(delta * 100).toFixed(1)}%` : '–';
const runsText = (values: number[], unit: string): string =>
  `${fmt(mean(values))}${unit ? ` ${unit}` : ''}${values.length > 1 ? ` (${values.map(fmt).join(', ')})` : ''}`;

/** The verdict of every figure both releases have runs for. */
export function figureVerdicts(a: ComparedRelease, b: ComparedRelease): FigureVerdict[] {
  const out: FigureVerdict[] = [];
  for (const f of FIGURES) {
    const ra = a.runs[f.mode].map(f.read).filter(Number.isFinite);
    const rb = b.runs[f.mode].map(f.read).filter(Number.isFinite);
    if (ra.length === 0 || rb.length === 0) continue;
    out.push({ mode: f.mode, figure: f.name, a: ra, b: rb, ...compareRuns(ra, rb, f.better, f.resolution) });
  }
  return out;
}

export function renderComparison(
  releases: [ComparedRelease, ComparedRelease],
  meta: { repeat: number; machine: Record<string, unknown>; dataset: Record<string, number> },
): ComparisonReport {
  const [a, b] = releases;
  const verdicts = figureVerdicts(a, b);
  const better = verdicts.filter((v) => v.verdict === 'better').map((v) => v.figure);
  const worse = verdicts.filter((v) => v.verdict === 'worse').map((v) => v.figure);
  const single = meta.repeat < 2 && (better.length > 0 || worse.length > 0);
  const overall =
    better.length === 0 && worse.length === 0
      ? 'No change beyond run-to-run noise.'
      : [
          better.length > 0 ? `B is better on ${better.join(', ')}.` : '',
          worse.length > 0 ? `B is worse on ${worse.join(', ')}.` : '',
          single ? 'One run each: confirm with --repeat 3 before trusting a difference.' : '',
        ]
          .filter(Boolean)
          .join(' ');
  const m = meta.machine;
  const lines: string[] = [
    `# Capacity: ${a.ref} (A) against ${b.ref} (B)`,
    '',
    `A = \`${a.commit.slice(0, 10)}\`, B = \`${b.commit.slice(0, 10)}\`. ${String(m.cores ?? '?')} cores (${String(m.cpuModel ?? '?')}), ${String(m.memoryGiB ?? '?')} GiB, Node ${String(m.node ?? '?')}, ${String(m.date ?? '')}. ` +
      `Each run on a fresh copy of the same dataset (${fmt(meta.dataset.users ?? NaN)} users, ${fmt(meta.dataset.groups ?? NaN)} groups, ${fmt(meta.dataset.messages ?? NaN)} messages, seed ${meta.dataset.seed}); ` +
      `${meta.repeat} run${meta.repeat > 1 ? 's' : ''} of each test per release, alternating A and B.`,
    '',
    `**${overall}**`,
    '',
    "Verdicts: a difference under the figure's resolution is no change; with one run each, a difference within ±5% is run-to-run noise; with two or more runs each, the runs measure the noise: a change must be beyond the widest spread of either release's own runs, with every run of one beyond every run of the other.",
    '',
    '| test | figure | A | B | delta | verdict |',
    '|---|---|---|---|---|---|',
  ];
  for (const v of verdicts) {
    const unit = FIGURES.find((f) => f.name === v.figure)?.unit ?? '';
    lines.push(
      `| ${v.mode} | ${v.figure} | ${runsText(v.a, unit)} | ${runsText(v.b, unit)} | ${signed(v.delta)} | ${v.verdict === 'same' ? 'same' : `**${v.verdict}**`} (${v.why}) |`,
    );
  }
  const charts: ComparisonReport['charts'] = [];
  for (const mode of ['unbounded', 'bounded'] as const) {
    const ra = a.runs[mode][0];
    const rb = b.runs[mode][0];
    if (!ra || !rb) continue;
    lines.push(
      '',
      `## ${mode === 'unbounded' ? 'Unbounded' : 'Bounded'}: first run of each, side by side`,
      '',
      '| A | B |',
      '|---|---|',
    );
    const specsB = new Map(capacityChartSpecs(rb).map((c) => [c.name, c.spec]));
    for (const { name, spec } of capacityChartSpecs(ra)) {
      const specB = specsB.get(name);
      if (!specB) continue;
      const fileA = `${mode}-a-${name}.svg`;
      const fileB = `${mode}-b-${name}.svg`;
      charts.push({ file: fileA, svg: lineChart({ ...spec, title: `A: ${spec.title}` }) });
      charts.push({ file: fileB, svg: lineChart({ ...specB, title: `B: ${specB.title}` }) });
      lines.push(`| ![A: ${spec.title}](${fileA}) | ![B: ${specB.title}](${fileB}) |`);
    }
  }
  lines.push(
    '',
    '## Runs',
    '',
    '| release | test | supported users | request avg | request p99 | errors | lost |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of releases) {
    for (const mode of ['unbounded', 'bounded'] as const) {
      for (const run of r.runs[mode]) {
        lines.push(
          `| ${r.label} (${run.commit}) | ${mode} | ${run.supportedUsers} | ${fmt(run.summary.requestAvgMs)} ms | ${fmt(run.summary.requestP99Ms)} ms | ${run.summary.errors} | ${run.summary.lostMessages} |`,
        );
      }
    }
  }
  lines.push('');
  const summary = [
    overall,
    ...verdicts.map(
      (v) =>
        `  ${v.mode.padEnd(9)} ${v.figure.padEnd(26)} A ${fmt(mean(v.a))}  B ${fmt(mean(v.b))}  ${signed(v.delta)}  ${v.verdict}`,
    ),
  ].join('\n');
  return { markdown: lines.join('\n'), charts, verdicts, summary };
}
