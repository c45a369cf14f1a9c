// A delivery benchmark's burst: requests sent with a few in flight while a
// receiver counts what the server delivers, and bounded waits for its counts.
import { progress } from './progress.ts';
import { round } from './stats.ts';
import type { ChartSpec } from './svg-chart.ts';

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const nowMs = () => performance.timeOrigin + performance.now();

/** Sends in progress: read while it runs, `finished` when every item was tried. */
export interface SendBurst {
  readonly total: number;
  /** Items tried so far (answered or failed). */
  done: number;
  errors: number;
  /** The first few errors' messages. */
  errorSamples: string[];
  /** Milliseconds each successful send took. */
  latencies: number[];
  /** Epoch ms when the last send ended (0 until then). */
  endedAt: number;
  finished: Promise<void>;
}

/** Calls `send` for every item in order, `concurrency` at a time; failures are counted, not thrown. */
export function sendBurst<T>(items: readonly T[], concurrency: number, send: (item: T) => Promise<unknown>): SendBurst {
  const burst: SendBurst = {
    total: items.length,
    done: 0,
    errors: 0,
    errorSamples: [],
    latencies: [],
    endedAt: 0,
    finished: Promise.resolve(),
  };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      const started = performance.now();
      try {
        await send(item);
        burst.latencies.push(performance.now() - started);
      } catch (err) {
        burst.errors += 1;
        if (burst.errorSamples.length < 5) burst.errorSamples.push(err instanceof Error ? err.message : String(err));
      }
      burst.done += 1;
    }
  };
  burst.finished = Promise.all(Array.from({ length: concurrency }, worker)).then(() => {
    burst.endedAt = nowMs();
  });
  return burst;
}

export interface ArrivalWait {
  /** The progress bar's label. */
  label: string;
  expected: number;
  /** The receiver's count so far. */
  count: () => Promise<number>;
  burst: SendBurst;
  /** Epoch ms (Date.now) after which the wait gives up. */
  deadline: number;
  /** Called with each count read (e.g. to chart it). */
  onCount?: (count: number) => void;
  /** Once every send is done, no arrival for this long ends the wait (default 20 s). */
  quietMs?: number;
}

/** Waits until everything expected arrived, bounded: silence after the sends, or the deadline. */
export async function awaitArrivals(wait: ArrivalWait): Promise<void> {
  const { burst, expected } = wait;
  const quietMs = wait.quietMs ?? 20_000;
  const bar = progress(wait.label, expected);
  let lastCount = -1;
  let lastChange = Date.now();
  for (;;) {
    const count = await wait.count();
    wait.onCount?.(count);
    bar.update(count);
    if (count !== lastCount) {
      lastCount = count;
      lastChange = Date.now();
    }
    const sent = burst.done === burst.total;
    if (count >= expected && sent) break;
    if (sent && Date.now() - lastChange > quietMs) break;
    if (Date.now() > wait.deadline) break;
    await pause(250);
  }
  bar.stop();
}

/** Polls `count` every 250 ms until it reaches `n` or `timeoutMs` passes; returns the last count. */
export async function awaitCount(count: () => Promise<number>, n: number, timeoutMs: number): Promise<number> {
  for (let i = 0; i < timeoutMs / 250 && (await count()) < n; i += 1) await pause(250);
  return count();
}

/** A burst's chart: the server's RSS and the share delivered, over seconds since the first send. */
export function burstChart(
  title: string,
  rssMiB: Array<[number, number]>,
  delivered: Array<[number, number]>,
  expected: number,
): ChartSpec {
  return {
    title,
    xLabel: 'seconds since the first send',
    yLabel: 'MB / % delivered',
    series: [
      { name: 'server RSS (MB)', points: rssMiB },
      { name: 'delivered (%)', points: delivered.map(([t, n]) => [t, round((n / Math.max(1, expected)) * 100)]) },
    ],
  };
}
