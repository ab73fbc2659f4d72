// Sim against real for one point: a comparison.csv row per metric, and the summary over a run. Pure:
// numbers in, rows out; reading the run folder is run-analysis.ts's job.

import {
  type ComparisonRow,
  type DimCells,
  isLatencyMetric,
  type LatencyMetric,
  type PointRow,
} from '../../contract/index.ts';
import { allowanceFor, type Calibration } from './calibration.ts';
import type { PercentileInterval } from './percentile-ci.ts';
import {
  CLIENT_METRICS,
  latencyVerdict,
  METRIC_COLUMN,
  METRIC_DECIMALS,
  METRICS,
  type Metric,
  pointVerdict,
  RATE_TOLERANCE,
  type RateMetric,
  rateVerdict,
  roundTo,
  VERDICTS,
  type Verdict,
} from './verdict.ts';

/** The real 95 % interval of each latency metric (null: no successful call). */
export type RealIntervals = Record<LatencyMetric, PercentileInterval | null>;

/** What identifies a point in comparison.csv (with its extra dimensions as cells, when any is set). */
export interface PointId extends DimCells {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
}

/** One point's inputs; `intervals` null = no raw sample (the interval shrinks to the real value). */
export interface PointComparisonInput {
  id: PointId;
  sim?: PointRow;
  real?: PointRow;
  intervals: RealIntervals | null;
  /** A foreign service: compare what a client can see (CLIENT_METRICS) instead of METRICS. */
  clientSide?: boolean;
}

function value(row: PointRow | undefined, m: Exclude<Metric, 'collapse'>): number | null {
  const v = row?.[METRIC_COLUMN[m]];
  return typeof v === 'number' && Number.isFinite(v) ? roundTo(v, METRIC_DECIMALS[m]) : null;
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

/** The comparison rows of one point, one per metric in METRICS (or CLIENT_METRICS) order. */
export function comparePoint(input: PointComparisonInput, calibration: Calibration | null): ComparisonRow[] {
  const { id, sim, real } = input;
  const shared = pointVerdict(sim, real);
  const metrics: readonly Metric[] = input.clientSide ? CLIENT_METRICS : METRICS;
  return metrics.map((metric): ComparisonRow => {
    const base = { ...id, metric };
    if (metric === 'collapse') {
      const s = sim ? (sim.collapsed ? 1 : 0) : null;
      const r = real ? (real.collapsed ? 1 : 0) : null;
      const none = { realCiLow: null, realCiHigh: null, allowance: null, diff: null };
      return { ...base, sim: s, real: r, ...none, verdict: shared ?? 'agrees' };
    }
    const d = METRIC_DECIMALS[metric];
    const s = value(sim, metric);
    const r = value(real, metric);
    const diff = s !== null && r !== null ? roundTo(s - r, d) : null;
    if (isLatencyMetric(metric)) {
      const ci = realInterval(r, input.intervals?.[metric] ?? null, d);
      const allowance = roundTo(allowanceFor(calibration, metric), d);
      let verdict: Verdict = shared ?? 'missing';
      if (!shared && s !== null && r !== null) {
        verdict = latencyVerdict(s, ci.low ?? Number.NEGATIVE_INFINITY, ci.high, allowance);
      }
      return { ...base, sim: s, real: r, realCiLow: ci.low, realCiHigh: ci.high, allowance, diff, verdict };
    }
    const rm = metric as RateMetric;
    let verdict: Verdict = shared ?? 'missing';
    if (!shared && s !== null && r !== null) verdict = rateVerdict(rm, s, r);
    return {
      ...base,
      sim: s,
      real: r,
      realCiLow: null,
      realCiHigh: null,
      allowance: RATE_TOLERANCE[rm],
      diff,
      verdict,
    };
  });
}

/** The calibration point's own lines: p50 and p99 with its interval; allowance = real − sim (what it sets). */
export function calibrationRows(input: PointComparisonInput): ComparisonRow[] {
  const { id, sim, real } = input;
  return (['p50', 'p99'] as const).map((metric) => {
    const d = METRIC_DECIMALS[metric];
    const s = value(sim, metric);
    const r = value(real, metric);
    const ci = realInterval(r, input.intervals?.[metric] ?? null, d);
    const diff = s !== null && r !== null ? roundTo(s - r, d) : null;
    const allowance = diff === null ? null : roundTo(-diff, d);
    return {
      ...id,
      metric,
      sim: s,
      real: r,
      realCiLow: ci.low,
      realCiHigh: ci.high,
      allowance,
      diff,
      verdict: 'calibration',
    };
  });
}

/** Counts over a run's comparison (the calibration lines are not judged and not counted). */
export interface ComparisonSummary {
  /** Points of the matrix (the calibration point excluded). */
  points: number;
  /** Points with both a simulated and a real row. */
  compared: number;
  /** Judged metric lines (K). */
  metrics: number;
  counts: Record<Verdict, number>;
}

/** Counts verdicts over the judged lines. */
export function summarize(
  rows: readonly ComparisonRow[],
  points: number,
  compared: number,
): ComparisonSummary {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  let metrics = 0;
  for (const r of rows) {
    counts[r.verdict]++;
    if (r.verdict !== 'calibration') metrics++;
  }
  return { points, compared, metrics, counts };
}

/** The summary as one line: N points, M metrics agree of K, and the other verdicts. */
export function formatSummaryLine(s: ComparisonSummary): string {
  const others = VERDICTS.filter((v) => v !== 'agrees' && v !== 'calibration')
    .map((v) => `${v} ${s.counts[v]}`)
    .join(', ');
  return `comparison: ${s.points} points (${s.compared} with sim and real); ${s.counts.agrees} of ${s.metrics} metrics agree; ${others}`;
}
