// A server process's resident memory over a phase of a benchmark: read every
// 200 ms (from the gateway's /metrics, or any other reader) until stopped.
import { readFileSync } from 'node:fs';
import { rssBytes, scrape } from './metrics.ts';

export interface RssTrace {
  /** The first reading, taken when the sampler started. */
  startBytes: number;
  peakBytes: number;
  /** The last reading, taken when the sampler stopped. */
  endBytes: number;
  /** [ms since start, bytes] of every reading. */
  samples: Array<[number, number]>;
  /** Readings that failed (the process busy past the timeout, or gone). */
  failures: number;
}

/** RSS of the process behind one gateway, from its Prometheus /metrics. */
export const metricsRss = (base: string) => async (): Promise<number> => rssBytes(await scrape(base));

/** RSS of a local process from /proc (Linux), for nodes that serve no /metrics. */
export const procRss = (pid: number) => async (): Promise<number> => {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
};

export const MiB = 2 ** 20;
export const mib = (bytes: number): number => Math.round((bytes / MiB) * 10) / 10;

/** Samples `read` every `intervalMs` from start() until stop(); one reading at each end. */
export class RssSampler {
  readonly #read: () => Promise<number>;
  readonly #intervalMs: number;
  #running = false;
  #loop: Promise<void> | undefined;
  #t0 = 0;
  #samples: Array<[number, number]> = [];
  #failures = 0;

  constructor(read: () => Promise<number>, intervalMs = 200) {
    this.#read = read;
    this.#intervalMs = intervalMs;
  }

  async #sample(): Promise<void> {
    try {
      const bytes = await Promise.race([
        this.#read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 5_000).unref()),
      ]);
      this.#samples.push([Math.round(performance.now() - this.#t0), bytes]);
    } catch {
      this.#failures += 1;
    }
  }

  /** Takes the first reading, then keeps sampling in the background. */
  async start(): Promise<void> {
    this.#t0 = performance.now();
    this.#samples = [];
    this.#failures = 0;
    await this.#sample();
    this.#running = true;
    this.#loop = (async () => {
      while (this.#running) {
        const next = performance.now() + this.#intervalMs;
        await this.#sample();
        const wait = next - performance.now();
        if (wait > 0 && this.#running) await new Promise((r) => setTimeout(r, wait));
      }
    })();
  }

  /** Stops sampling (one last reading) and returns the trace. */
  async stop(): Promise<RssTrace> {
    this.#running = false;
    await this.#loop;
    await this.#sample();
    const values = this.#samples.map(([, b]) => b);
    return {
      startBytes: values[0] ?? NaN,
      peakBytes: values.length > 0 ? Math.max(...values) : NaN,
      endBytes: values.at(-1) ?? NaN,
      samples: this.#samples,
      failures: this.#failures,
    };
  }
}
