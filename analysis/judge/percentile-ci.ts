// Distribution-free confidence interval for a percentile, from the sorted raw sample (order statistics).
//
// Method (exact binomial, no normal approximation): for a continuous distribution with p-quantile ξ, the
// number B of observations ≤ ξ is Binomial(n, q) with q = p/100. Then X(l) ≤ ξ < X(u) exactly when
// l ≤ B ≤ u − 1, so the interval [X(l), X(u)] covers ξ with probability P(l ≤ B ≤ u − 1). We take the
// largest l with P(B ≤ l − 1) ≤ α/2 and the smallest u with P(B ≥ u) ≤ α/2: equal tails, each at most
// α/2, so the coverage is at least 1 − α (slightly more, since B is discrete). The binomial
// probabilities are computed exactly by summing the pmf outward from its mode with the ratio
// recurrence (no log-gamma, no overflow), dropping terms below 1e-18 of the mode.
//
// When the sample is too small for a tail (P(B = n) > α/2, e.g. p99.9 from fewer than ~3 700 values),
// no order statistic bounds the percentile from above: the interval then ends at the sample maximum
// and `highOpen` says the true value may lie beyond it. `lowOpen` is the same at the minimum.

import { percentileOfSorted } from '../../contract/index.ts';
import { AnalysisArgumentError } from '../errors.ts';

/** A percentile's point estimate and confidence interval. Ranks are 1-based into the sorted sample. */
export interface PercentileInterval {
  /** Percentile, 0 < p < 100. */
  p: number;
  n: number;
  /** The estimate: the value of rank percentileRank(n, p), the one percentile rule (contract/percentile.ts). */
  estimate: number;
  low: number;
  high: number;
  lowRank: number;
  highRank: number;
  /** Exact coverage P(lowRank ≤ B ≤ highRank − 1) of [low, high] (≥ confidence unless an end is open). */
  coverage: number;
  confidence: number;
  /** The sample cannot bound the percentile from below: `low` is the sample minimum. */
  lowOpen: boolean;
  /** The sample cannot bound the percentile from above: `high` is the sample maximum, the truth may be higher. */
  highOpen: boolean;
}

/** Pmf weights of Binomial(n, q) over [from, from + w.length), normalised; terms outside are < 1e-18. */
interface BinomialBand {
  from: number;
  pmf: Float64Array;
}

const NEGLIGIBLE = 1e-18;

function binomialBand(n: number, q: number): BinomialBand {
  const mode = Math.min(n, Math.floor((n + 1) * q));
  const odds = q / (1 - q);
  const down: number[] = [];
  let w = 1;
  for (let k = mode; k > 0; k--) {
    // pmf(k − 1) = pmf(k) · k / (n − k + 1) / odds
    w = (w * k) / (n - k + 1) / odds;
    if (w < NEGLIGIBLE) break;
    down.push(w);
  }
  const up: number[] = [];
  w = 1;
  for (let k = mode; k < n; k++) {
    // pmf(k + 1) = pmf(k) · (n − k) / (k + 1) · odds
    w = ((w * (n - k)) / (k + 1)) * odds;
    if (w < NEGLIGIBLE) break;
    up.push(w);
  }
  const pmf = new Float64Array(down.length + 1 + up.length);
  for (let i = 0; i < down.length; i++) pmf[down.length - 1 - i] = down[i];
  pmf[down.length] = 1;
  for (let i = 0; i < up.length; i++) pmf[down.length + 1 + i] = up[i];
  let total = 0;
  for (let i = 0; i < pmf.length; i++) total += pmf[i];
  for (let i = 0; i < pmf.length; i++) pmf[i] /= total;
  return { from: mode - down.length, pmf };
}

/** P(B ≤ k) from a band (exact up to the dropped 1e-18 tails). */
function cdfTable(band: BinomialBand): (k: number) => number {
  const cum = new Float64Array(band.pmf.length);
  let s = 0;
  for (let i = 0; i < band.pmf.length; i++) {
    s += band.pmf[i];
    cum[i] = s;
  }
  return (k: number) => {
    const i = k - band.from;
    if (i < 0) return 0;
    if (i >= cum.length) return 1;
    return cum[i];
  };
}

/** The ranks [l, u] of the order-statistic interval for the q-quantile of n values (see the file comment). */
export function percentileRanks(
  n: number,
  p: number,
  confidence = 0.95,
): { lowRank: number; highRank: number; coverage: number; lowOpen: boolean; highOpen: boolean } {
  if (!(p > 0 && p < 100)) {
    throw new AnalysisArgumentError(`percentile p = ${p} is outside (0, 100); pass e.g. 99 or 99.9`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new AnalysisArgumentError(`confidence = ${confidence} is outside (0, 1); pass e.g. 0.95`);
  }
  if (!Number.isInteger(n) || n < 1) {
    throw new AnalysisArgumentError(`sample size n = ${n} must be a whole number ≥ 1`);
  }
  const q = p / 100;
  const tail = (1 - confidence) / 2;
  const cdf = cdfTable(binomialBand(n, q));
  // l: largest in [1, n] with P(B ≤ l − 1) ≤ tail. P(B ≤ l − 1) grows with l, so scan from the band.
  let lowRank = 0;
  let lo = 1;
  let hi = n;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf(mid - 1) <= tail) {
      lowRank = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // u: smallest in [1, n] with P(B ≥ u) = 1 − P(B ≤ u − 1) ≤ tail.
  let highRank = n + 1;
  lo = 1;
  hi = n;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (1 - cdf(mid - 1) <= tail) {
      highRank = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  const lowOpen = lowRank === 0;
  const highOpen = highRank === n + 1;
  if (lowOpen) lowRank = 1;
  if (highOpen) highRank = n;
  // Coverage of the closed interval [X(l), X(u)] as returned: below `confidence` when an end is open.
  const coverage = cdf(highRank - 1) - cdf(lowRank - 1);
  return { lowRank, highRank, coverage, lowOpen, highOpen };
}

/** The p-th percentile of an ascending sample with its confidence interval; null when the sample is empty. */
export function percentileInterval(
  sorted: ArrayLike<number>,
  p: number,
  confidence = 0.95,
): PercentileInterval | null {
  const n = sorted.length;
  if (n === 0) return null;
  const r = percentileRanks(n, p, confidence);
  return {
    p,
    n,
    estimate: percentileOfSorted(sorted, p),
    low: sorted[r.lowRank - 1],
    high: sorted[r.highRank - 1],
    lowRank: r.lowRank,
    highRank: r.highRank,
    coverage: r.coverage,
    confidence,
    lowOpen: r.lowOpen,
    highOpen: r.highOpen,
  };
}
