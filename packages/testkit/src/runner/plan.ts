// Which test files run, and how each shares the machine: most run side by
// side; browser files take two slots (Chromium, a server process and the test
// itself); a file whose header says `// test-run: alone` runs with nothing
// else (benchmarks that measure, tests that stop servers or time a failover).
import { globSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const PATTERNS = [
  'packages/*/test/**/*.test.ts',
  'server/test/**/*.test.ts',
  'services/*/test/**/*.test.ts',
  'gateway/test/**/*.test.ts',
  'benchmark/test/**/*.test.ts',
  // The web client's browser tests (node:test files driving Chromium against real servers).
  'client/e2e/**/*.test.ts',
];

/** The marker a file puts in a line of its own to run alone: `// test-run: alone (why)`. */
const ALONE = /^\/\/ test-run: alone\b/m;

export interface PlannedFile {
  /** Relative to the repository's root. */
  file: string;
  /** Pool slots the file holds while it runs; `alone` files hold them all. */
  slots: number;
  alone: boolean;
}

export function planFiles(root: string, requested: string[]): PlannedFile[] {
  const files = requested.length > 0 ? requested : PATTERNS.flatMap((p) => globSync(p, { cwd: root })).sort();
  return files.map((file) => {
    const alone = ALONE.test(readFileSync(resolve(root, file), 'utf8'));
    return { file, alone, slots: /(^|\/)client\/e2e\//.test(file) ? 2 : 1 };
  });
}
