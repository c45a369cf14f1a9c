// Each file's last duration, kept between runs (in node_modules/.cache, out of
// git) so that the next run starts the longest files first; and the table of
// the slowest files printed after a run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileOutcome } from './run-file.ts';

export type Timings = Record<string, number>;

export const timingsPath = (root: string) => join(root, 'node_modules/.cache/im-test-timings.json');

/**
 * Durations measured once from a fresh clone (refresh by copying the cache
 * file over it now and then): a first run on a new machine, which has no
 * cache, still starts the long files first instead of leaving them to the end.
 */
const SEED = fileURLToPath(new URL('./seed-timings.json', import.meta.url));

const readJson = (path: string): Timings => {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Timings;
  } catch {
    return {};
  }
};

/** This machine's last durations, over the committed seed's. */
export function readTimings(path: string): Timings {
  return { ...readJson(SEED), ...readJson(path) };
}

export function writeTimings(path: string, previous: Timings, outcomes: FileOutcome[]): void {
  const next = { ...previous };
  for (const o of outcomes) next[o.file] = o.ms;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(next, null, 1)}\n`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function slowestTable(outcomes: FileOutcome[], top: number): string {
  return [...outcomes]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((o) => `  ${seconds(o.ms).padStart(8)}  ${String(o.tests).padStart(3)} tests  ${o.file}`)
    .join('\n');
}

export { seconds };
