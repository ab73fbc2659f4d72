// The differences the verdict judges: for each compared metric of a point, D = measured − simulated over the
// same calls, with its 95 % interval. Paired by call (block-bootstrap.ts) where both sides ran the same calls
// (hedgebench's own server: common random numbers); for a foreign service, which draws its own service times,
// the interval of a difference of two independent samples, each side's own sampling error included.

import { LATENCY_METRICS, type LatencyMetric, percentileOf } from '../../contract/index.ts';
import type { MarginMetric } from '../../model/index.ts';
import {
  BlockMeans,
  bootstrapIntervals,
  CallBlocks,
  type CallSample,
  type DiffInterval,
  WeightedSample,
} from './block-bootstrap.ts';
import { type CallTable, okLatencies } from './call-table.ts';
import { percentileInterval } from './percentile-ci.ts';

/**
 * One metric's difference, measured − simulated: its estimate and 95 % interval (an end is ±∞ when a foreign
 * sample is too small to bound the percentile on that side).
 */
export interface MetricDiff extends DiffInterval {
  estimate: number;
  /** The calls behind it (ok calls for a latency, every measured call for a rate), on the measured side. */
  n: number;
}

/** The differences of a point, by metric; absent = not computable (no such calls on a side). */
export type PointDiffs = Partial<Record<MarginMetric, MetricDiff>>;

type RateMetric = Exclude<MarginMetric, LatencyMetric>;

/** Each rate metric as a per-call value (its mean over the calls is the rate). */
const PER_CALL: Record<RateMetric, (t: CallTable, i: number) => number> = {
  requests_per_call: (t, i) => t.attempts[i],
  hedge_rate: (t, i) => (t.attempts[i] > 1 ? 1 : 0),
  rejected_rate: (t, i) => t.rejected[i],
  utilization: (t, i) => t.busyMs?.[i] ?? Number.NaN,
};

function perCall(t: CallTable, m: RateMetric, scale: number): CallSample {
  const v = new Float64Array(t.n);
  for (let i = 0; i < t.n; i++) v[i] = PER_CALL[m](t, i) * scale;
  return { call: t.call, latencyMs: v };
}

function mean(xs: Float64Array): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length === 0 ? Number.NaN : s / xs.length;
}

/** Which rates a side can give: utilisation needs worker time on both sides and a span to divide by. */
function rates(real: CallTable, sim: CallTable, utilScale: number | null): RateMetric[] {
  const out: RateMetric[] = ['requests_per_call', 'hedge_rate', 'rejected_rate'];
  if (utilScale !== null && real.busyMs !== null && sim.busyMs !== null) out.push('utilization');
  return out;
}

/**
 * Paired differences of every metric, measured − simulated, under one set of block resamples over the calls
 * of both sides. `utilScale` turns mean worker time per call into utilisation: calls ÷ (workers × span).
 */
export function pairedDiffs(real: CallTable, sim: CallTable, utilScale: number | null): PointDiffs {
  const blocks = new CallBlocks([real, sim]);
  const names: MarginMetric[] = [];
  const estimates: number[] = [];
  const counts: number[] = [];
  const diffs: ((w: Float64Array) => number)[] = [];
  const ra = okLatencies(real);
  const sa = okLatencies(sim);
  if (ra.call.length > 0 && sa.call.length > 0) {
    const wr = new WeightedSample(ra, blocks);
    const ws = new WeightedSample(sa, blocks);
    for (const m of LATENCY_METRICS) {
      names.push(m.name);
      estimates.push(percentileOf(ra.latencyMs, m.percentile) - percentileOf(sa.latencyMs, m.percentile));
      counts.push(ra.call.length);
      diffs.push((w) => wr.percentile(w, m.percentile) - ws.percentile(w, m.percentile));
    }
  }
  if (real.n > 0 && sim.n > 0) {
    for (const m of rates(real, sim, utilScale)) {
      const scale = m === 'utilization' ? utilScale! : 1;
      const r = perCall(real, m, scale);
      const s = perCall(sim, m, scale);
      const br = new BlockMeans(r, blocks);
      const bs = new BlockMeans(s, blocks);
      names.push(m);
      estimates.push(mean(r.latencyMs) - mean(s.latencyMs));
      counts.push(real.n);
      diffs.push((w) => br.mean(w) - bs.mean(w));
    }
  }
  const intervals = bootstrapIntervals(blocks, diffs);
  const out: PointDiffs = {};
  names.forEach((m, i) => {
    const iv = intervals[i];
    if (iv === null) return;
    const estimate = estimates[i];
    // The interval holds its own estimate (a resample's rank can step past it on a discrete sample).
    out[m] = {
      estimate,
      low: Math.min(iv.low, estimate),
      high: Math.max(iv.high, estimate),
      n: counts[i],
    };
  });
  return out;
}

// z of a two-sided 95 % interval.
const Z95 = 1.959964;

/**
 * Differences of two independent samples (a foreign service: no common random numbers): a percentile's
 * interval from each side's exact order-statistic interval, the two half-widths added in quadrature on each
 * side; a rate's from the normal approximation of a difference of means. An open end stays open.
 */
export function unpairedDiffs(real: CallTable, sim: CallTable): PointDiffs {
  const out: PointDiffs = {};
  const ra = okLatencies(real).latencyMs.sort();
  const sa = okLatencies(sim).latencyMs.sort();
  for (const m of LATENCY_METRICS) {
    const r = percentileInterval(ra, m.percentile);
    const s = percentileInterval(sa, m.percentile);
    if (r === null || s === null) continue;
    const estimate = r.estimate - s.estimate;
    const lowOpen = r.lowOpen || s.highOpen;
    const highOpen = r.highOpen || s.lowOpen;
    out[m.name] = {
      estimate,
      low: lowOpen
        ? Number.NEGATIVE_INFINITY
        : estimate - Math.hypot(r.estimate - r.low, s.high - s.estimate),
      high: highOpen
        ? Number.POSITIVE_INFINITY
        : estimate + Math.hypot(r.high - r.estimate, s.estimate - s.low),
      n: ra.length,
    };
  }
  if (real.n === 0 || sim.n === 0) return out;
  for (const m of rates(real, sim, null)) {
    const r = perCall(real, m, 1).latencyMs;
    const s = perCall(sim, m, 1).latencyMs;
    const half = Z95 * Math.sqrt(variance(r) / r.length + variance(s) / s.length);
    const estimate = mean(r) - mean(s);
    out[m] = { estimate, low: estimate - half, high: estimate + half, n: r.length };
  }
  return out;
}

function variance(xs: Float64Array): number {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return xs.length > 1 ? s / (xs.length - 1) : 0;
}
