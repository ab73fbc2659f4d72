// Percentiles of samples by the one percentile rule (library/percentile-rank.ts: the nearest rank
// ⌈q/100 · n⌉, HdrHistogram's): from a sorted sample (attribution.csv, the intervals, the load generator's
// self-check); bootstrap weights and histograms (contract/histogram.ts) use the rank itself.

import { percentileRank } from '../library/index.ts';

export { percentileRank };

/** The p-th percentile (0 < p ≤ 100) of an ascending sample: its value of percentileRank; NaN when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return sorted[percentileRank(n, p) - 1];
}

/** The same rule on a sample in any order (sorted on a copy; the sample is left as it is). */
export function percentileOf(sample: ArrayLike<number>, p: number): number {
  return percentileOfSorted(Float64Array.from(sample).sort(), p);
}
