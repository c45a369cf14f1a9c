// A latency histogram that client processes fill and the coordinator merges:
// logarithmic buckets 2% wide, so percentiles are within 2% of the exact
// value however many samples a window holds, and a window of minutes costs a
// few hundred numbers over IPC instead of every sample.

const FLOOR_MS = 0.01;
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

/** What crosses the IPC channel: bucket index -> count, plus exact count, sum and max. */
export interface HistogramData {
  buckets: Array<[number, number]>;
  count: number;
  sumMs: number;
  maxMs: number;
}

const bucketOf = (ms: number): number => (ms <= FLOOR_MS ? 0 : Math.ceil(Math.log(ms / FLOOR_MS) / LOG_GROWTH));
/** The upper edge of a bucket: a percentile is never reported below the true value. */
const upperEdge = (bucket: number): number => FLOOR_MS * GROWTH ** bucket;

export class Histogram {
  readonly #buckets = new Map<number, number>();
  count = 0;
  sumMs = 0;
  maxMs = 0;

  record(ms: number): void {
    if (!Number.isFinite(ms)) return;
    const v = Math.max(0, ms);
    const b = bucketOf(v);
    this.#buckets.set(b, (this.#buckets.get(b) ?? 0) + 1);
    this.count += 1;
    this.sumMs += v;
    if (v > this.maxMs) this.maxMs = v;
  }

  merge(other: Histogram | HistogramData): this {
    const entries = other instanceof Histogram ? other.#buckets.entries() : other.buckets;
    for (const [b, n] of entries) this.#buckets.set(b, (this.#buckets.get(b) ?? 0) + n);
    this.count += other.count;
    this.sumMs += other.sumMs;
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
    return this;
  }

  get meanMs(): number {
    return this.count === 0 ? NaN : this.sumMs / this.count;
  }

  /** Nearest-rank percentile (bucket upper edge, capped at the largest value seen); NaN when empty. */
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (const b of [...this.#buckets.keys()].sort((x, y) => x - y)) {
      seen += this.#buckets.get(b)!;
      if (seen >= rank) return Math.min(upperEdge(b), this.maxMs);
    }
    return this.maxMs;
  }

  toData(): HistogramData {
    return { buckets: [...this.#buckets.entries()], count: this.count, sumMs: this.sumMs, maxMs: this.maxMs };
  }

  static from(data: HistogramData): Histogram {
    return new Histogram().merge(data);
  }

  /** Merges many (e.g. one per client process, or the samples of a window). */
  static sum(all: Iterable<Histogram | HistogramData>): Histogram {
    const out = new Histogram();
    for (const h of all) out.merge(h);
    return out;
  }
}
