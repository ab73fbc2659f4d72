// The one percentile rule of hedgebench: nearest rank max(1, round(q·n)), the rank HdrHistogram reports,
// so a percentile from a sorted sample (analysis, the load generator's self-check) and one from a
// histogram (points.csv) count the same way.

/** Nearest-rank estimate of the p-th percentile (0 < p ≤ 100) of an ascending sample; NaN when empty. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const rank = Math.max(1, Math.min(n, Math.floor((p / 100) * n + 0.5)));
  return sorted[rank - 1];
}

/** The same rule on a sample in any order (sorted on a copy; the sample is left as it is). */
export function percentileOf(sample: ArrayLike<number>, p: number): number {
  return percentileOfSorted(Float64Array.from(sample).sort(), p);
}
