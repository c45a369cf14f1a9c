import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadCpu } from './load-cpu.ts';
import { machineFacts } from './machine.ts';
import { lineChart, type ChartSpec } from './svg-chart.ts';

export const RESULTS_DIR = fileURLToPath(new URL('../../results/', import.meta.url));

export interface ResultFile {
  benchmark: string;
  /** Whatever the benchmark measured. */
  [key: string]: unknown;
}

/**
 * Writes `<name>.json` (with the machine's facts and the load generator's
 * CPU) and, when given, `<name>.svg` beside it. `--out FILE` moves the JSON;
 * the chart follows it with an .svg extension.
 */
export function writeResult(
  result: ResultFile,
  options: { out?: string | undefined; load: LoadCpu; chart?: ChartSpec },
): { json: string; svg?: string } {
  const machine = machineFacts();
  const json = options.out ?? join(RESULTS_DIR, `${result.benchmark}.json`);
  mkdirSync(dirname(json), { recursive: true });
  const loadGenerator = options.load.report(machine.cores);
  writeFileSync(json, `${JSON.stringify({ ...result, machine, loadGenerator }, null, 2)}\n`);
  process.stdout.write(
    `load generator: ${loadGenerator.processes} process(es), ${Math.round(loadGenerator.shareOfOneCore * 100)}% of one core (${Math.round(loadGenerator.shareOfMachine * 100)}% of the machine)\n`,
  );
  process.stdout.write(`written ${json}\n`);
  if (!options.chart) return { json };
  const svg = json.replace(/\.json$/, '') + '.svg';
  writeFileSync(svg, lineChart(options.chart));
  process.stdout.write(`written ${svg}\n`);
  return { json, svg };
}

/** A fixed-width table for the human summary. */
export function table(rows: Array<Record<string, string | number>>): string {
  if (rows.length === 0) return '';
  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [
    line(keys),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(keys.map((k) => String(r[k] ?? '')))),
  ]
    .join('\n')
    .concat('\n');
}
