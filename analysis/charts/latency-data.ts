// The data of a latency-against-load chart: one datum per percentile, point and source, with how its
// mark is drawn and why (simulated, a valid measurement, an interval open above, invalid), the loads where
// a side collapsed, and the reasons of the invalid points in short. Pure.

import { formatLoad, formatMs, type LatencyMetric, latencyMetric } from '../../contract/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { pointTip } from './point-tip.ts';

/** The percentiles a latency chart draws: the tails, where hedging shows (p50 barely moves). */
export const CHARTED_PERCENTILES = ['p99', 'p99.9'] as const satisfies readonly LatencyMetric[];

/** How a percentile's mark is drawn, and why. */
export type MarkStatus = 'simulated' | 'measured' | 'open' | 'invalid';

/** One percentile of one point and source. `low`/`high` only on real points (the 95 % interval). */
interface LatencyDatum {
  load: number;
  /** The load, nudged per seed and source so that marks of one load sit side by side, not on each other. */
  x: number;
  percentile: (typeof CHARTED_PERCENTILES)[number];
  source: 'sim' | 'real';
  seed: string;
  value: number;
  /** `value` where the real line may be drawn solid (a valid measurement), else null. */
  solid: number | null;
  low?: number;
  high?: number;
  /** The interval is open above: the sample cannot bound the percentile. */
  open: boolean;
  status: MarkStatus;
  tip: string;
}

/** A load at which a side collapsed: a marker at the top of the chart instead of a percentile. */
interface CollapseDatum {
  load: number;
  x: number;
  label: string;
  tip: string;
}

/** Everything one latency chart draws. */
export interface LatencyChartData {
  points: LatencyDatum[];
  collapses: CollapseDatum[];
  /** Loads whose measurement is missing, with why, e.g. `0.50 failed` (nothing real is drawn there). */
  unmeasured: string[];
  /** Short forms of the reasons the chart's invalid points failed their self-check, most frequent first. */
  invalidReasons: string[];
}

/** Share of the x axis between two seeds' marks at one load, and between a seed's sim and real marks. */
const SEED_NUDGE = 0.03;
const SOURCE_NUDGE = 0.01;
/** Load units the x axis reaches beyond the lowest and highest load. */
const X_PAD = 0.05;

/** The x axis of a latency chart: the matrix's loads with a margin. */
export function xDomain(loads: readonly number[]): [number, number] {
  return [Math.min(...loads) - X_PAD, Math.max(...loads) + X_PAD];
}

/**
 * A reason's kind without its figures, for a legend: `send-lag p99 2.31 ms exceeds the threshold 1 ms` →
 * `send-lag p99 > 1 ms`; `achieved rate 278/s is -50 % off the target …` → `achieved rate off the target`.
 */
export function shortReason(r: string): string {
  const ms = r.match(/^(.*?) -?[\d.]+ ms exceeds (?:the threshold |fidelity\.\w+ = )([\d.]+) ms/);
  if (ms) return `${ms[1]} > ${ms[2]} ms`;
  const rate = r.match(/^(achieved rate) .* off the (schedule|target)/);
  if (rate) return `${rate[1]} off the ${rate[2]}`;
  const words = r.split(/:|[\s(]+-?\d/)[0].trim();
  const s = words.length >= 8 ? words : r.replace(/\s*\(.*\)\s*$/, '');
  return s.length > 48 ? `${s.slice(0, 47)}…` : s;
}

/** The percentiles of one configuration and mode; collapsed sides become collapse markers. */
export function latencyData(
  points: readonly PointAnalysis[],
  seeds: readonly number[],
  loads: readonly number[],
): LatencyChartData {
  const [x0, x1] = xDomain(loads);
  const unit = x1 - x0;
  const out: LatencyDatum[] = [];
  const reasons = new Map<string, number>();
  const collapsedAt = new Map<number, { sides: Set<string>; points: PointAnalysis[] }>();
  const nudge = (seed: number) => {
    const i = Math.max(0, seeds.indexOf(seed));
    return (i - (seeds.length - 1) / 2) * SEED_NUDGE * unit;
  };
  const unmeasured: string[] = [];
  for (const p of points) {
    if (!p.real && p.entry.state !== 'done') {
      const who = seeds.length > 1 ? ` (seed ${p.id.seed})` : '';
      unmeasured.push(`${formatLoad(p.id.load)}${who} ${p.entry.state}`);
    }
    for (const source of ['sim', 'real'] as const) {
      const row = source === 'sim' ? p.sim : p.real;
      if (!row) continue;
      if (row.collapsed) {
        const c = collapsedAt.get(p.id.load) ?? { sides: new Set(), points: [] };
        c.sides.add(seeds.length > 1 ? `${source} s${p.id.seed}` : source);
        if (!c.points.includes(p)) c.points.push(p);
        collapsedAt.set(p.id.load, c);
        continue;
      }
      if (source === 'real' && !row.valid) {
        for (const r of new Set(p.invalidReasons.map(shortReason))) reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
      for (const percentile of CHARTED_PERCENTILES) {
        const v = row[latencyMetric(percentile).column];
        if (v === null || !(v > 0)) continue;
        const iv = source === 'real' ? p.intervals?.[percentile] : null;
        const open = iv?.highOpen === true;
        const status: MarkStatus =
          source === 'sim' ? 'simulated' : !row.valid ? 'invalid' : open ? 'open' : 'measured';
        const d: LatencyDatum = {
          load: p.id.load,
          x: p.id.load + nudge(p.id.seed) + (source === 'sim' ? -SOURCE_NUDGE : SOURCE_NUDGE) * unit,
          percentile,
          source,
          seed: String(p.id.seed),
          value: v,
          solid: status === 'measured' || status === 'open' ? v : null,
          open,
          status,
          tip: pointTip(p, [source], `this mark: ${source} ${percentile} = ${formatMs(v)} ms`),
        };
        if (iv) {
          d.low = Math.max(Math.min(iv.low, v), 1e-3);
          d.high = Math.max(iv.high, v);
        }
        out.push(d);
      }
    }
  }
  const collapses = [...collapsedAt].map(([load, c]) => ({
    load,
    x: load,
    label: `collapse\n${[...c.sides].join(', ')}`,
    tip: c.points.map((p) => pointTip(p, ['sim', 'real'], 'collapsed: no percentile to draw')).join('\n\n'),
  }));
  const byCount = [...reasons].sort((u, v) => v[1] - u[1] || (u[0] < v[0] ? -1 : 1)).map(([r]) => r);
  return { points: out, collapses, unmeasured, invalidReasons: byCount };
}

/** One log-scale domain for every latency chart of a run, so charts side by side compare by eye. */
export function latencyDomain(charts: readonly LatencyChartData[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const c of charts) {
    for (const d of c.points) {
      lo = Math.min(lo, d.value, d.low ?? d.value);
      hi = Math.max(hi, d.value, d.high ?? d.value);
    }
  }
  if (!(hi > 0)) return [1, 1000];
  // Room above the data for the collapse markers, when any chart has one.
  const headroom = charts.some((c) => c.collapses.length > 0) ? 4 : 1.3;
  return [lo / 1.3, hi * headroom];
}
