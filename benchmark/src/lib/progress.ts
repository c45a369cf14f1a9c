import { SingleBar } from 'cli-progress';

export interface Progress {
  /** Moves the bar to `value` (absolute). */
  update(value: number): void;
  increment(by?: number): void;
  stop(): void;
}

/**
 * A progress bar on stderr for a long phase. Off a terminal (CI, a log
 * file) it prints a line every few seconds instead of redrawing.
 */
export function progress(label: string, total: number): Progress {
  const bar = new SingleBar({
    format: `${label.padEnd(28)} [{bar}] {percentage}% {value}/{total} {duration_formatted}`,
    stream: process.stderr,
    noTTYOutput: true,
    notTTYSchedule: 5_000,
    hideCursor: true,
    clearOnComplete: false,
    barsize: 30,
  });
  bar.start(total, 0);
  return {
    update: (value) => bar.update(value),
    increment: (by = 1) => bar.increment(by),
    stop: () => bar.stop(),
  };
}

/** One bar per phase of a job that reports `(phase, done, total)`: a new phase closes the last bar. */
export function phasedProgress(): {
  onProgress: (phase: string, done: number, total: number) => void;
  stop(): void;
} {
  let current: { phase: string; bar: Progress } | undefined;
  return {
    onProgress(phase, done, total) {
      if (current?.phase !== phase) {
        current?.bar.stop();
        current = { phase, bar: progress(phase, total) };
      }
      current.bar.update(done);
    },
    stop: () => current?.bar.stop(),
  };
}

/** Runs `fn` over `items` with at most `concurrency` in flight, ticking a bar. */
export async function forEachLimited<T>(
  items: readonly T[],
  concurrency: number,
  label: string,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const bar = progress(label, items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
      bar.increment();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  } finally {
    bar.stop();
  }
}
