/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, digits = 1): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export interface Summary {
  count: number;
  mean: number;
  sd: number;
  p50: number;
  p99: number;
  p100: number;
}

/** Mean, sample standard deviation and percentiles, rounded for reports. */
export function summarize(values: readonly number[], digits = 1): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = n === 0 ? NaN : sorted.reduce((s, v) => s + v, 0) / n;
  const variance = n < 2 ? 0 : sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  return {
    count: n,
    mean: round(mean, digits),
    sd: round(Math.sqrt(variance), digits),
    p50: round(percentile(sorted, 50), digits),
    p99: round(percentile(sorted, 99), digits),
    p100: round(percentile(sorted, 100), digits),
  };
}

/** Median of a list (used across rounds). */
export const median = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
