// The verdict rules: does the simulator's value for a point and metric agree with the measurement?
// Pure functions of the numbers; results/README.md states the same rules for readers of comparison.csv.

import {
  CLIENT_METRICS,
  type LatencyColumn,
  METRIC_DECIMALS,
  METRICS,
  type Metric,
  type PointRow,
  perLatencyMetric,
  VERDICTS,
  type Verdict,
} from '../../contract/index.ts';

// The metric and verdict names are comparison.csv's format, so contract/ owns them; the rules stay here.
export { CLIENT_METRICS, METRIC_DECIMALS, METRICS, type Metric, VERDICTS, type Verdict };

/**
 * Absolute tolerances of the rate metrics (see results/README.md for why these values):
 * requests per call ±0.05 attempts, utilisation ±0.05, rejected rate ±0.02 (2 % of calls), and for a
 * foreign service the hedge rate ±0.05 (as requests per call: with two attempts a call, the same count).
 */
export const RATE_TOLERANCE = Object.freeze({
  requests_per_call: 0.05,
  utilization: 0.05,
  rejected_rate: 0.02,
  hedge_rate: 0.05,
});
/** The metrics judged by an absolute tolerance. */
export type RateMetric = keyof typeof RATE_TOLERANCE;

/** The points.csv column behind each numeric metric. */
export const METRIC_COLUMN = Object.freeze({
  ...perLatencyMetric((m): LatencyColumn => m.column),
  requests_per_call: 'requests_per_call',
  utilization: 'utilization',
  rejected_rate: 'rejected_rate',
  hedge_rate: 'hedge_rate',
} as const satisfies Record<Exclude<Metric, 'collapse'>, keyof PointRow>);

/** Rounds to a metric's decimals so the verdict matches the printed numbers exactly. */
export function roundTo(x: number, decimals: number): number {
  return Number(x.toFixed(decimals));
}

/** A tiny slack so a value printed exactly on a bound counts as inside it. */
const EPS = 1e-9;

/**
 * The verdict every metric of a point shares, or null when each metric is judged on its own.
 * Precedence: missing > both-collapsed > invalid > collapse-mismatch. Both-collapsed wins over invalid
 * because a generator stopped at its collapse cap cannot pass its rate check; a mismatch is a finding
 * only when the measurement passed its self-check.
 */
export function pointVerdict(sim: PointRow | undefined, real: PointRow | undefined): Verdict | null {
  if (!sim || !real) return 'missing';
  if (sim.collapsed && real.collapsed) return 'both-collapsed';
  if (!real.valid) return 'invalid';
  if (sim.collapsed !== real.collapsed) return 'collapse-mismatch';
  return null;
}

/** The interval a latency check uses: the real interval widened on the side the overhead explains. */
export function widenedInterval(
  ciLow: number,
  ciHigh: number | null,
  allowanceMs: number,
): { low: number; high: number } {
  // The harness adds latency to the real side, so a positive allowance lets sim sit that much below the
  // real interval; a negative one (real faster than sim) lets it sit that much above.
  return {
    low: ciLow - Math.max(allowanceMs, 0),
    high: ciHigh === null ? Number.POSITIVE_INFINITY : ciHigh + Math.max(-allowanceMs, 0),
  };
}

/**
 * Latency metric verdict: agrees when sim lies in [ciLow − max(a, 0), ciHigh + max(−a, 0)], a = allowance.
 * `ciHigh` null = the sample cannot bound the percentile above (open interval). Inputs already rounded.
 */
export function latencyVerdict(
  sim: number,
  ciLow: number,
  ciHigh: number | null,
  allowanceMs: number,
): Verdict {
  const w = widenedInterval(ciLow, ciHigh, allowanceMs);
  return sim >= w.low - EPS && sim <= w.high + EPS ? 'agrees' : 'diverges';
}

/** Rate metric verdict: agrees when |sim − real| ≤ the metric's absolute tolerance. Inputs already rounded. */
export function rateVerdict(metric: RateMetric, sim: number, real: number): Verdict {
  return Math.abs(sim - real) <= RATE_TOLERANCE[metric] + EPS ? 'agrees' : 'diverges';
}
