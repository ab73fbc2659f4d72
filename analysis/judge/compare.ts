// Sim against real for one point: a comparison.csv row per metric, and the summary over a run. Pure:
// numbers in, rows out; reading the run folder and pairing the calls is run-analysis.ts's job.

import {
  CLIENT_METRICS,
  type ComparisonRow,
  isLatencyMetric,
  type LatencyMetric,
  METRICS,
  type Metric,
  metricSpec,
  type PointId,
  type PointRow,
  VERDICTS,
  type Verdict,
} from '../../contract/index.ts';
import type { MarginMetric, Margins } from '../../model/index.ts';
import { equivalence, marginOf } from './equivalence.ts';
import type { PointDiffs } from './paired-comparison.ts';
import type { PercentileInterval } from './percentile-ci.ts';
import { pointVerdict, roundTo } from './verdict.ts';

/** The real 95 % interval of each latency metric (null: no successful call). */
export type RealIntervals = Record<LatencyMetric, PercentileInterval | null>;

/** One point's inputs to its comparison lines. */
interface PointComparisonInput {
  id: PointId;
  sim?: PointRow;
  real?: PointRow;
  /** The real value's own interval per latency metric (real_ci_*); null = no raw sample. */
  intervals: RealIntervals | null;
  /** measured − simulated per metric with its interval (paired-comparison.ts); null = not computed. */
  diffs: PointDiffs | null;
  /** What the harness's parts add at each latency percentile, real − real′; absent = not split. */
  harness?: Partial<Record<LatencyMetric, number>>;
  /** A foreign service: compare what a client can see (CLIENT_METRICS) instead of METRICS. */
  clientSide?: boolean;
}

function value(row: PointRow | undefined, m: Exclude<Metric, 'collapse'>): number | null {
  const { column, decimals } = metricSpec(m);
  const v = row?.[column];
  return typeof v === 'number' && Number.isFinite(v) ? roundTo(v, decimals) : null;
}

/** The real interval of a latency metric as written: widened to contain the real value; null end = open. */
export function realInterval(
  real: number | null,
  iv: PercentileInterval | null,
  decimals: number,
): { low: number | null; high: number | null } {
  if (real === null) return { low: null, high: null };
  if (!iv) return { low: real, high: real };
  // The row's percentile comes from the HDR histogram (3 significant digits, bucket top), the bounds from
  // exact order statistics; widening by that rounding keeps the real value inside its own interval.
  return {
    low: iv.lowOpen ? null : Math.min(roundTo(iv.low, decimals), real),
    high: iv.highOpen ? null : Math.max(roundTo(iv.high, decimals), real),
  };
}

const finiteOrNull = (x: number) => (Number.isFinite(x) ? x : null);

/** The comparison rows of one point, one per metric in METRICS (or CLIENT_METRICS) order. */
export function comparePoint(input: PointComparisonInput, margins: Margins): ComparisonRow[] {
  const { id, sim, real } = input;
  const shared = pointVerdict(sim, real);
  const metrics: readonly Metric[] = input.clientSide ? CLIENT_METRICS : METRICS;
  return metrics.map((metric): ComparisonRow => {
    const base = { ...id, metric };
    const none = { realCiLow: null, realCiHigh: null, allowance: null, diffCiLow: null, diffCiHigh: null };
    if (metric === 'collapse') {
      const s = sim ? (sim.collapsed ? 1 : 0) : null;
      const r = real ? (real.collapsed ? 1 : 0) : null;
      return { ...base, sim: s, real: r, ...none, diff: null, margin: null, verdict: shared ?? 'agrees' };
    }
    const d = metricSpec(metric).decimals;
    const s = value(sim, metric);
    const r = value(real, metric);
    const diff = s !== null && r !== null ? roundTo(s - r, d) : null;
    const ci = isLatencyMetric(metric) ? realInterval(r, input.intervals?.[metric] ?? null, d) : null;
    const harness = isLatencyMetric(metric) ? input.harness?.[metric] : undefined;
    const margin = s === null ? null : roundTo(marginOf(metric as MarginMetric, s, margins), d);
    // The row is written as sim − real; the interval of the difference in the same sense, sim − real′.
    const dm = input.diffs?.[metric as MarginMetric];
    const diffCiLow = dm === undefined ? null : finiteOrNull(roundTo(-dm.high, d));
    const diffCiHigh = dm === undefined ? null : finiteOrNull(roundTo(-dm.low, d));
    let verdict: Verdict = shared ?? 'missing';
    if (!shared && s !== null && r !== null && margin !== null) {
      // Without an interval nothing says the two are the same: undecided, never agreement by default.
      verdict =
        dm === undefined
          ? 'undecided'
          : equivalence(
              diffCiLow ?? Number.NEGATIVE_INFINITY,
              diffCiHigh ?? Number.POSITIVE_INFINITY,
              margin,
            );
    }
    return {
      ...base,
      sim: s,
      real: r,
      ...none,
      realCiLow: ci?.low ?? null,
      realCiHigh: ci?.high ?? null,
      allowance: harness === undefined ? null : roundTo(harness, d),
      diff,
      diffCiLow,
      diffCiHigh,
      margin,
      verdict,
    };
  });
}

/** Counts over a run's comparison. */
export interface ComparisonSummary {
  /** Points of the matrix (the calibration point excluded). */
  points: number;
  /** Points with both a simulated and a real row. */
  compared: number;
  /** Judged metric lines (K). */
  metrics: number;
  counts: Record<Verdict, number>;
  /** Of the compared points, those judged against the model run on their own measured trips (sim-net.ts). */
  replayed: number;
}

/** Counts verdicts over the judged lines (those of the matrix's points: the calibration point has its own line). */
export function summarize(
  rows: readonly ComparisonRow[],
  points: number,
  compared: number,
  replayed = 0,
): ComparisonSummary {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  let metrics = 0;
  for (const r of rows) {
    counts[r.verdict]++;
    if (r.verdict !== 'calibration') metrics++;
  }
  return { points, compared, metrics, counts, replayed };
}

/** The summary as one line: N points, M metrics agree of K, and the other verdicts. */
export function formatSummaryLine(s: ComparisonSummary): string {
  const others = VERDICTS.filter((v) => v !== 'agrees' && v !== 'calibration')
    .map((v) => `${v} ${s.counts[v]}`)
    .join(', ');
  const replayed = s.replayed === 0 ? '' : `, ${s.replayed} tied of them judged against their replayed trips`;
  return `comparison: ${s.points} points (${s.compared} with sim and real${replayed}); ${s.counts.agrees} of ${s.metrics} metrics agree; ${others}`;
}
