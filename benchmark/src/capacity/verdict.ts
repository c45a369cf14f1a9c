// Whether release B changed a figure against release A, or the difference is
// the run-to-run noise of these machines.

export type Better = 'higher' | 'lower';

export interface Verdict {
  /** Relative change of B's mean against A's (0.1 = +10%). */
  delta: number;
  verdict: 'better' | 'worse' | 'same';
  why: string;
}

/** Differences within this fraction count as noise unless repeated runs separate. */
export const NOISE = 0.05;

const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * A difference under the figure's resolution is no change. Otherwise, with
 * one run each: beyond ±5% is a change, within it is noise. Two or more runs
 * each: the runs decide instead, in either direction: ranges that do not
 * overlap are a change (even under 5%), overlapping ones are noise (even over).
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
    const separate = Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a);
    if (!separate) return { delta, verdict: 'same', why: `the ${a.length} and ${b.length} runs overlap` };
    return { delta, verdict: direction(delta), why: `every run of one is beyond every run of the other` };
  }
  if (Math.abs(delta) <= NOISE) return { delta, verdict: 'same', why: 'within ±5% run-to-run noise' };
  return { delta, verdict: direction(delta), why: 'beyond ±5%, one run each (repeat to confirm)' };
}
