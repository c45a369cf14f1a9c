// The client-side figures of a stretch of a capacity run (one sample, or the
// samples of a window): request, store and broadcast times as mergeable
// histograms, errors, missed messages; merged over client processes and
// over samples alike.
import type { WindowReport } from './agent-protocol.ts';
import { Histogram } from './histogram.ts';

export interface KindFigures {
  count: number;
  errors: number;
  avgMs: number;
  p99Ms: number;
}

export class Figures {
  readonly requests = new Histogram();
  readonly byKind = new Map<string, { times: Histogram; errors: number }>();
  readonly store = new Histogram();
  readonly broadcast = new Histogram();
  readonly actions = new Map<string, number>();
  errors = 0;
  /** Errors without an answer (not in the request times). */
  unanswered = 0;
  missed = 0;
  readonly errorSamples: string[] = [];

  #kind(kind: string) {
    let k = this.byKind.get(kind);
    if (!k) this.byKind.set(kind, (k = { times: new Histogram(), errors: 0 }));
    return k;
  }

  /** Adds one client process's window. */
  addReport(r: WindowReport): this {
    for (const [kind, data] of Object.entries(r.requests)) {
      this.requests.merge(data);
      this.#kind(kind).times.merge(data);
    }
    for (const [kind, n] of Object.entries(r.errors)) {
      this.#kind(kind).errors += n;
      this.errors += n;
    }
    for (const [kind, n] of Object.entries(r.actions)) this.actions.set(kind, (this.actions.get(kind) ?? 0) + n);
    this.unanswered += r.unanswered;
    this.store.merge(r.store);
    this.broadcast.merge(r.broadcast);
    this.missed += r.missed;
    for (const s of r.errorSamples) if (this.errorSamples.length < 10) this.errorSamples.push(s);
    return this;
  }

  /** Adds another stretch (merging samples into a window). */
  add(other: Figures): this {
    this.requests.merge(other.requests);
    for (const [kind, k] of other.byKind) {
      const mine = this.#kind(kind);
      mine.times.merge(k.times);
      mine.errors += k.errors;
    }
    for (const [kind, n] of other.actions) this.actions.set(kind, (this.actions.get(kind) ?? 0) + n);
    this.store.merge(other.store);
    this.broadcast.merge(other.broadcast);
    this.errors += other.errors;
    this.unanswered += other.unanswered;
    this.missed += other.missed;
    for (const s of other.errorSamples) if (this.errorSamples.length < 10) this.errorSamples.push(s);
    return this;
  }

  static merge(all: Iterable<Figures>): Figures {
    const out = new Figures();
    for (const f of all) out.add(f);
    return out;
  }

  /** Requests made: answered ones plus those that never got an answer. */
  get total(): number {
    return this.requests.count + this.unanswered;
  }

  get errorRate(): number {
    return this.total === 0 ? 0 : this.errors / this.total;
  }

  /** The client figures of a sample or summary over `seconds` of the run. */
  clientFigures(seconds: number) {
    return {
      requestsPerSecond: round(this.total / seconds),
      requests: this.total,
      errors: this.errors,
      errorRate: round(this.errorRate, 6),
      requestAvgMs: round(this.requests.meanMs),
      requestP99Ms: round(this.requests.percentile(99)),
      storeAvgMs: round(this.store.meanMs),
      storeP99Ms: round(this.store.percentile(99)),
      broadcastAvgMs: round(this.broadcast.meanMs),
      broadcastP99Ms: round(this.broadcast.percentile(99)),
      deliveriesPerSecond: round(this.broadcast.count / seconds),
      missedMessages: this.missed,
    };
  }

  kinds(): Record<string, KindFigures> {
    return Object.fromEntries(
      [...this.byKind]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, k]) => [
          kind,
          {
            count: k.times.count,
            errors: k.errors,
            avgMs: round(k.times.meanMs),
            p99Ms: round(k.times.percentile(99)),
          },
        ]),
    );
  }
}

/** Rounded to 0.1, NaN kept (JSON writes it as null). */
export const round = (n: number, digits = 1): number => {
  const f = 10 ** digits;
  return Number.isFinite(n) ? Math.round(n * f) / f : NaN;
};
