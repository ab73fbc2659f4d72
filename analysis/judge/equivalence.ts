// The equivalence rule of the verdict: sim and real agree when the whole 95 % interval of their difference
// lies within ± the metric's margin, diverge when it lies wholly outside, and are undecided otherwise. A
// noisier point has a wider interval, and so decides less, never agrees more. Pure functions of numbers;
// results/README.md states the same rule for readers of comparison.csv.

import {
  isRelativeMargin,
  LATENCY_MARGIN_FLOOR_MS,
  type MarginMetric,
  type Margins,
} from '../../model/index.ts';

/** What the interval of a difference says against its margin. */
type Equivalence = 'agrees' | 'diverges' | 'undecided';

/** A tiny slack so a bound printed exactly on the margin counts as inside it. */
const EPS = 1e-9;

/** The margin of a metric for a point, in the metric's unit: a latency's is a fraction of the simulated value. */
export function marginOf(metric: MarginMetric, sim: number, margins: Margins): number {
  const m = margins[metric];
  return isRelativeMargin(metric) ? Math.max(LATENCY_MARGIN_FLOOR_MS, m * Math.abs(sim)) : m;
}

/** The verdict of an interval [low, high] of a difference (an end may be ±∞) against ± margin. */
export function equivalence(low: number, high: number, margin: number): Equivalence {
  if (low >= -margin - EPS && high <= margin + EPS) return 'agrees';
  if (high < -margin - EPS || low > margin + EPS) return 'diverges';
  return 'undecided';
}

/**
 * About how many calls would decide an undecided difference, from its interval's half-width, which falls
 * as 1/√n: the half-width it needs is the gap between the estimate and the margin. Null when no number of
 * calls would (an open interval, or an estimate exactly on the margin).
 */
export function callsToDecide(
  d: { estimate: number; low: number; high: number; n: number },
  margin: number,
): number | null {
  const half = (d.high - d.low) / 2;
  if (!Number.isFinite(half) || d.n <= 0) return null;
  const need = Math.abs(Math.abs(d.estimate) - margin);
  if (need <= EPS) return null;
  // Rounded to the call before the ceiling: a ratio of exact decimals lands a hair above a whole number.
  return Math.ceil(Number((d.n * (half / need) ** 2).toFixed(6)));
}

/**
 * The smallest true difference this measurement would have called a divergence: an interval as wide as this
 * one lies wholly outside ± margin once its centre is more than margin + half-width away (∞ when open).
 */
export function detectableDifference(low: number, high: number, margin: number): number {
  return margin + (high - low) / 2;
}
