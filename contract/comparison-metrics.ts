// The names comparison.csv carries: the compared metrics, in its order, and the verdicts. A metric's column,
// decimals and label are the metric table's (contract/metric-table.ts); the rules that decide a verdict stay
// in analysis/judge/verdict.ts: this is only the format.

import { LATENCY_METRICS, type LatencyMetric } from './metric-table.ts';

const LATENCY_NAMES: readonly LatencyMetric[] = LATENCY_METRICS.map((m) => m.name);

/** The metrics compared, in comparison.csv order: the latency metrics (metric-table.ts), then rates. */
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
 * `agrees` / `diverges` / `undecided`: the equivalence rule of the metric (the interval of the difference
 * inside, outside, or across its margin). `both-collapsed`, `collapse-mismatch`, `invalid` apply to every
 * metric of a point. `missing`: a side (or the value) is absent, e.g. the real point failed. `calibration`:
 * only in files written before the paired verdict, a line of the calibration point, which then set an
 * allowance instead of being judged.
 */
export type Verdict =
  | 'agrees'
  | 'undecided'
  | 'diverges'
  | 'both-collapsed'
  | 'collapse-mismatch'
  | 'invalid'
  | 'missing'
  | 'calibration';

/** Every verdict, in the order summaries list them. */
export const VERDICTS: readonly Verdict[] = [
  'agrees',
  'undecided',
  'diverges',
  'both-collapsed',
  'collapse-mismatch',
  'invalid',
  'missing',
  'calibration',
];
