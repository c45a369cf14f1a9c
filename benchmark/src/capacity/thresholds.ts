// Whether a stretch of a capacity run meets the thresholds, and which break.
import type { Thresholds } from './config.ts';
import type { Figures } from './figures.ts';

export type ThresholdName = keyof Thresholds;

export interface Check {
  threshold: ThresholdName;
  value: number;
  limit: number;
  held: boolean;
}

/** The value each threshold is judged on. */
export function measure(f: Figures): Record<ThresholdName, number> {
  return {
    errorRate: f.errorRate,
    requestP99Ms: f.requests.percentile(99),
    requestAvgMs: f.requests.meanMs,
    broadcastP99Ms: f.broadcast.percentile(99),
    missedMessages: f.missed,
  };
}

/** Every threshold against the figures. A figure with no data (no requests, no broadcast) holds. */
export function checkThresholds(f: Figures, limits: Thresholds): Check[] {
  const values = measure(f);
  return (Object.keys(limits) as ThresholdName[]).map((threshold) => {
    const value = values[threshold];
    const limit = limits[threshold];
    return { threshold, value, limit, held: !Number.isFinite(value) || value <= limit };
  });
}

export const broken = (checks: readonly Check[]): Check[] => checks.filter((c) => !c.held);
