// The verdict rules: does the simulator's value for a point and metric agree with the measurement?
// Pure functions of the numbers; results/README.md states the same rules for readers of comparison.csv.

import {
  LATENCY_METRICS,
  type LatencyColumn,
  type LatencyMetric,
  type PointRow,
  perLatencyMetric,
} from '../../contract/index.ts';

const LATENCY_NAMES: readonly LatencyMetric[] = LATENCY_METRICS.map((m) => m.name);

/** The metrics compared, in comparison.csv order: the latency metrics (contract/latency-metrics.ts), then rates. */
export const METRICS = [
  ...LATENCY_NAMES,
  'requests_per_call',
  'utilization',
  'rejected_rate',
  'collapse',
] as const;
/**
 * The metrics compared for a foreign service (the matrix's `target.url`): only what a client can see, so
 * the hedge rate takes the place of utilisation (which needs the server's own records).
 */
export const CLIENT_METRICS = [
  ...LATENCY_NAMES,
  'requests_per_call',
  'hedge_rate',
  'rejected_rate',
  'collapse',
] as const;
/** One compared metric. */
export type Metric = (typeof METRICS)[number] | (typeof CLIENT_METRICS)[number];

/**
 * `agrees` / `diverges`: the rule of the metric. `both-collapsed`, `collapse-mismatch`, `invalid` apply to
 * every metric of a point. `missing`: a side (or the value) is absent, e.g. the real point failed.
 * `calibration`: a row of the calibration point, which sets the allowance instead of being judged.
 */
export type Verdict =
  | 'agrees'
  | 'diverges'
  | 'both-collapsed'
  | 'collapse-mismatch'
  | 'invalid'
  | 'missing'
  | 'calibration';

/** Every verdict, in the order summaries list them. */
export const VERDICTS: readonly Verdict[] = [
  'agrees',
  'diverges',
  'both-collapsed',
  'collapse-mismatch',
  'invalid',
  'missing',
  'calibration',
];

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

/** Decimals each metric is written with; verdicts are computed on these rounded values. */
export const METRIC_DECIMALS: Readonly<Record<Metric, number>> = Object.freeze({
  ...perLatencyMetric((m) => m.decimals),
  requests_per_call: 4,
  utilization: 4,
  rejected_rate: 5,
  hedge_rate: 4,
  collapse: 0,
});

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
