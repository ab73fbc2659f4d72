// The latency metrics hedgebench compares (comparison.csv, claims, the report): each one's name, the
// percentile it is, the points.csv column that holds it and the decimals it is written with. The one table
// every writer and reader derives from, so a metric cannot mean one percentile in one file and another
// elsewhere. (points.csv's p90_ms is no compared metric: only claim 7 reads it, as "the queue's latency".)

/** One compared latency metric. */
interface LatencyMetricSpec {
  /** How comparison.csv and the report name it. */
  readonly name: string;
  /** The percentile, 0 < p ≤ 100 (contract/percentile.ts's rule). */
  readonly percentile: number;
  /** The points.csv column holding it, ms. */
  readonly column: string;
  /** Decimals points.csv and comparison.csv write it with; verdicts are taken on these rounded values. */
  readonly decimals: number;
}

/** The compared latency metrics, in comparison.csv order. */
export const LATENCY_METRICS = [
  { name: 'p50', percentile: 50, column: 'p50_ms', decimals: 3 },
  { name: 'p99', percentile: 99, column: 'p99_ms', decimals: 3 },
  { name: 'p99.9', percentile: 99.9, column: 'p999_ms', decimals: 3 },
] as const satisfies readonly LatencyMetricSpec[];

/** A compared latency metric's name: `p50`, `p99`, `p99.9`. */
export type LatencyMetric = (typeof LATENCY_METRICS)[number]['name'];
/** The points.csv column of a compared latency metric: `p50_ms`, `p99_ms`, `p999_ms`. */
export type LatencyColumn = (typeof LATENCY_METRICS)[number]['column'];
/** One entry of the table. */
type LatencyMetricEntry = (typeof LATENCY_METRICS)[number];

const BY_NAME: ReadonlyMap<string, LatencyMetricEntry> = new Map(LATENCY_METRICS.map((m) => [m.name, m]));
const BY_COLUMN: ReadonlyMap<string, LatencyMetricEntry> = new Map(LATENCY_METRICS.map((m) => [m.column, m]));

/** Whether a metric name is one of the latency metrics (the others are rates and collapse). */
export function isLatencyMetric(name: string): name is LatencyMetric {
  return BY_NAME.has(name);
}

/** The entry of a latency metric. */
export function latencyMetric(name: LatencyMetric): LatencyMetricEntry {
  return BY_NAME.get(name)!;
}

/** The entry of the metric a points.csv latency column holds. */
export function latencyMetricOfColumn(column: LatencyColumn): LatencyMetricEntry {
  return BY_COLUMN.get(column)!;
}

/** One value per latency metric, keyed by its name (e.g. each metric's interval). */
export function perLatencyMetric<T>(f: (m: LatencyMetricEntry) => T): Record<LatencyMetric, T> {
  return Object.fromEntries(LATENCY_METRICS.map((m) => [m.name, f(m)])) as Record<LatencyMetric, T>;
}
