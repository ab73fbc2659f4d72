// The one metric table: every figure points.csv holds for a point beyond its identity and call counts, with
// the name comparison.csv, the claims and the report give it, the column that holds it, the decimals
// every file writes it with (verdicts and claims take the rounded value), its label in a sentence, its unit,
// a latency metric's percentile, a compared metric's margin cap and a rate's claim tolerance. Every writer
// and reader derives from it, so a metric cannot mean one thing in one file and another elsewhere.

import { MARGIN_CAPS } from '../model/index.ts';

/** A metric's unit as results/README.md's points.csv tables give it; null: true or false. */
type MetricUnit = 'ms' | 'attempts/call' | 'fraction' | null;

/** One metric of the table. */
interface MetricSpec {
  /** How comparison.csv, the claims and the report name it. */
  readonly name: string;
  /** The points.csv column holding it. */
  readonly column: string;
  /** Decimals every file writes it with. */
  readonly decimals: number;
  /** Its name in a sentence (`requests per call`). */
  readonly label: string;
  readonly unit: MetricUnit;
  /** A latency percentile's p, 0 < p ≤ 100 (contract/percentile.ts's rule). */
  readonly percentile?: number;
  /**
   * A compared metric's widest equivalence margin, also its default: a fraction of the simulated value for
   * a latency, absolute for a rate. The figure is model/margins.ts's MARGIN_CAPS, named here: model/ checks a
   * matrix's margins against the caps, and sits below contract/.
   */
  readonly marginCap?: number;
  /**
   * How far a rate may sit from a claim's bound and still meet it. Wider than the margin: a claim relates two
   * configurations, or a bound the study states in round figures; the verdict asks whether the measurement
   * is the prediction.
   */
  readonly claimTolerance?: number;
}

/** Every metric, in points.csv's column order (`collapse`: comparison.csv's name for `collapsed`). */
export const METRIC_TABLE = [
  {
    name: 'p50',
    column: 'p50_ms',
    decimals: 3,
    label: 'p50',
    unit: 'ms',
    percentile: 50,
    marginCap: MARGIN_CAPS.p50,
  },
  // No compared metric: claim 7 reads it as "the latency the queue alone causes".
  { name: 'p90', column: 'p90_ms', decimals: 3, label: 'p90', unit: 'ms', percentile: 90 },
  {
    name: 'p99',
    column: 'p99_ms',
    decimals: 3,
    label: 'p99',
    unit: 'ms',
    percentile: 99,
    marginCap: MARGIN_CAPS.p99,
  },
  {
    name: 'p99.9',
    column: 'p999_ms',
    decimals: 3,
    label: 'p99.9',
    unit: 'ms',
    percentile: 99.9,
    marginCap: MARGIN_CAPS['p99.9'],
  },
  { name: 'max', column: 'max_ms', decimals: 3, label: 'max', unit: 'ms' },
  { name: 'mean', column: 'mean_ms', decimals: 3, label: 'mean', unit: 'ms' },
  {
    name: 'requests_per_call',
    column: 'requests_per_call',
    decimals: 4,
    label: 'requests per call',
    unit: 'attempts/call',
    marginCap: MARGIN_CAPS.requests_per_call,
    claimTolerance: 0.05,
  },
  {
    name: 'hedge_rate',
    column: 'hedge_rate',
    decimals: 5,
    label: 'hedge rate',
    unit: 'fraction',
    marginCap: MARGIN_CAPS.hedge_rate,
  },
  { name: 'skipped_rate', column: 'skipped_rate', decimals: 5, label: 'skipped rate', unit: 'fraction' },
  {
    name: 'rejected_rate',
    column: 'rejected_rate',
    decimals: 5,
    label: 'rejected rate',
    unit: 'fraction',
    marginCap: MARGIN_CAPS.rejected_rate,
    claimTolerance: 0.02,
  },
  { name: 'failed_rate', column: 'failed_rate', decimals: 5, label: 'failed rate', unit: 'fraction' },
  {
    name: 'utilization',
    column: 'utilization',
    decimals: 4,
    label: 'utilisation',
    unit: 'fraction',
    marginCap: MARGIN_CAPS.utilization,
    claimTolerance: 0.05,
  },
  { name: 'collapse', column: 'collapsed', decimals: 0, label: 'collapse', unit: null },
  { name: 'send_lag_p99', column: 'send_lag_p99_ms', decimals: 3, label: 'send-lag p99', unit: 'ms' },
  {
    name: 'hedged_on_error_rate',
    column: 'hedged_on_error_rate',
    decimals: 5,
    label: 'hedged-on-error rate',
    unit: 'fraction',
  },
  {
    name: 'extra_service_share',
    column: 'extra_service_share',
    decimals: 5,
    label: 'extra service share',
    unit: 'fraction',
  },
] as const satisfies readonly MetricSpec[];

/** One entry of the table. */
type MetricEntry = (typeof METRIC_TABLE)[number];
/** A metric's name. */
type MetricName = MetricEntry['name'];
/** The entry of a named metric, with its own fields' types. */
type MetricOf<N extends MetricName> = Extract<MetricEntry, { name: N }>;

const BY_NAME: ReadonlyMap<string, MetricEntry> = new Map(METRIC_TABLE.map((m) => [m.name, m]));
const BY_COLUMN: ReadonlyMap<string, MetricEntry> = new Map(METRIC_TABLE.map((m) => [m.column, m]));

/** The entry of a metric. */
export function metricSpec<N extends MetricName>(name: N): MetricOf<N> {
  return BY_NAME.get(name) as MetricOf<N>;
}

/** The entry of the metric a points.csv column holds; undefined for a column that is no metric (`load`). */
export function metricOfColumn(column: string): MetricEntry | undefined {
  return BY_COLUMN.get(column);
}

/** The compared latency metrics, in comparison.csv order. */
export const LATENCY_METRICS = [metricSpec('p50'), metricSpec('p99'), metricSpec('p99.9')] as const;

/** A compared latency metric's name: `p50`, `p99`, `p99.9`. */
export type LatencyMetric = (typeof LATENCY_METRICS)[number]['name'];
/** The points.csv column of a compared latency metric: `p50_ms`, `p99_ms`, `p999_ms`. */
export type LatencyColumn = (typeof LATENCY_METRICS)[number]['column'];
/** The entry of a compared latency metric. */
type LatencyMetricEntry = (typeof LATENCY_METRICS)[number];

const LATENCY_NAMES: ReadonlySet<string> = new Set(LATENCY_METRICS.map((m) => m.name));

/** Whether a metric name is one of the compared latency metrics (the others are rates and collapse). */
export function isLatencyMetric(name: string): name is LatencyMetric {
  return LATENCY_NAMES.has(name);
}

/** The entry of a compared latency metric. */
export function latencyMetric(name: LatencyMetric): LatencyMetricEntry {
  return metricSpec(name);
}

/** The entry of the compared latency metric a points.csv latency column holds. */
export function latencyMetricOfColumn(column: LatencyColumn): LatencyMetricEntry {
  return BY_COLUMN.get(column) as LatencyMetricEntry;
}

/** One value per compared latency metric, keyed by its name (e.g. each metric's interval). */
export function perLatencyMetric<T>(f: (m: LatencyMetricEntry) => T): Record<LatencyMetric, T> {
  return Object.fromEntries(LATENCY_METRICS.map((m) => [m.name, f(m)])) as Record<LatencyMetric, T>;
}
