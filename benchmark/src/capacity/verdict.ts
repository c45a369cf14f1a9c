// Whether release B changed a figure against release A, or the difference is
// the run-to-run noise of these machines.

export type Better = 'higher' | 'lower';

export interface Verdict {
  /** Relative change of B's mean against A's (0.1 = +10%). */
  delta: number;
  verdict: 'better' | 'worse' | 'same';
  why: string;
}

/** Differences within this fraction count as noise when there is one run each. */
export const NOISE = 0.05;

const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

/** How far apart a release's own runs are, relative to their mean: (max - min) / mean. */
const spread = (values: readonly number[]): number => {
  const m = mean(values);
  return m === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / Math.abs(m);
};

/**
 * A difference under the figure's resolution is no change. Otherwise, with
 * one run each: beyond ±5% is a change, within it is noise. With two or more
 * runs each, the runs measure the noise instead: the widest spread of either
 * release's own runs is the band (narrower than 5% when runs are tight, wider
 * when they scatter), and a change must be beyond it with every run of one
 * release beyond every run of the other.
 */
export function compareRuns(
  a: readonly number[],
  b: readonly number[],
  better: Better,
  /** Differences of the means below this (in the figure's unit) are below what the measurement resolves. */
  resolution = 0,
): Verdict {
  if (a.length === 0 || b.length === 0) throw new Error('compareRuns needs at least one run of each');
  const meanA = mean(a);
  const meanB = mean(b);
  const delta = meanA === 0 ? (meanB === 0 ? 0 : Infinity * Math.sign(meanB)) : (meanB - meanA) / Math.abs(meanA);
  const direction = (d: number): 'better' | 'worse' => (d > 0 === (better === 'higher') ? 'better' : 'worse');
  if (Math.abs(meanB - meanA) < resolution) {
    return { delta, verdict: 'same', why: `a difference under ${resolution}, below what is measured` };
  }
  if (a.length >= 2 && b.length >= 2) {
    const band = Math.max(spread(a), spread(b));
    const pct = `${(band * 100).toFixed(1)}%`;
    const separate = Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a);
    if (!separate) return { delta, verdict: 'same', why: `the runs overlap (their spread: ${pct})` };
    if (Math.abs(delta) <= band) return { delta, verdict: 'same', why: `within the runs' own spread of ${pct}` };
    return { delta, verdict: direction(delta), why: `beyond the runs' spread of ${pct}, every run apart` };
  }
  if (Math.abs(delta) <= NOISE) return { delta, verdict: 'same', why: 'within ±5% run-to-run noise' };
  return { delta, verdict: direction(delta), why: 'beyond ±5%, one run each (repeat to confirm)' };
}
