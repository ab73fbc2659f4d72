// The one percentile rule of hedgebench: the nearest rank, rank = max(1, min(n, ⌈q/100 · n⌉)) — the
// textbook rule, and the one HdrHistogram takes. It lives in the library because the library's own
// percentile delay (windowed-histogram.ts) counts by it too; contract/percentile.ts gives it to the rest of
// hedgebench (results, intervals, bootstrap, histograms). results/README.md states it for readers.

// q/100 · n lands a few ulps (relative ~10⁻¹⁶) off the product it means — 99.9/100 · 1000 reads
// 999.0000000000001 — which ⌈⌉ would turn into the next rank; the guard, relative 10⁻¹², absorbs that.
// What a percentile with one decimal truly leaves above a whole number is a multiple of 0.001, far above
// the guard even at the 5·10⁷ calls a matrix allows (5·10⁻⁵).
const GUARD = 1e-12;

/** The 1-based rank of the p-th percentile (0 < p ≤ 100) among n ≥ 1 values: max(1, min(n, ⌈p/100 · n⌉)). */
export function percentileRank(n: number, p: number): number {
  const x = (p / 100) * n;
  return Math.max(1, Math.min(n, Math.ceil(x - GUARD * Math.max(1, x))));
}
