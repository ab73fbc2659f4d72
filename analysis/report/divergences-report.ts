// The report's Divergences section: every metric where measurement and simulation disagree, with the real
// value's interval, the allowance, and how much of a latency gap the harness explains.

import type { ComparisonRow } from '../../contract/index.ts';
import {
  formatLoad,
  isLatencyMetric,
  latencyMetric,
  percentileOf,
  rowKey,
  rowLabel,
} from '../../contract/index.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { METRIC_DECIMALS } from '../judge/verdict.ts';
import { DASH, ms } from './report-cells.ts';
import type { Block } from './report-doc.ts';

function num(r: ComparisonRow, v: number | null): string {
  if (v === null) return DASH;
  return r.metric === 'collapse' ? (v ? 'true' : 'false') : v.toFixed(METRIC_DECIMALS[r.metric]);
}

function interval(r: ComparisonRow): string {
  if (r.real === null || !isLatencyMetric(r.metric)) return DASH;
  const lo = r.realCiLow === null ? '−∞' : num(r, r.realCiLow);
  const hi = r.realCiHigh === null ? '∞ (open: too few calls)' : num(r, r.realCiHigh);
  return `[${lo}, ${hi}]`;
}

/** A table of the diverging metrics, or a line saying there is none. */
export function divergenceBlocks(a: RunAnalysis): Block[] {
  const off = a.comparison.filter((r) => r.verdict === 'diverges' || r.verdict === 'collapse-mismatch');
  if (off.length === 0) return [{ kind: 'paragraph', text: 'No metric diverges.' }];
  const head = [
    'configuration',
    'load',
    'cancellation',
    'seed',
    'metric',
    'sim',
    'real',
    'real 95 % interval',
    'allowance',
    'sim − real',
    'verdict',
    'explained by the harness',
  ];
  const rows = off.map((r) => [
    rowLabel(r),
    formatLoad(r.load),
    r.cancellation,
    String(r.seed),
    r.metric,
    num(r, r.sim),
    num(r, r.real),
    interval(r),
    r.allowance === null ? DASH : num(r, r.allowance),
    r.diff === null ? DASH : num(r, r.diff),
    r.verdict,
    harnessShare(a, r),
  ]);
  return [{ kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 && i <= 9 ? 'right' : 'left')) }];
}

/**
 * How much of a latency gap the harness explains: the real percentile minus the same percentile of the
 * latencies with every harness part taken out (same calls, same queue), beside the gap itself.
 */
function harnessShare(a: RunAnalysis, r: ComparisonRow): string {
  const pct = isLatencyMetric(r.metric) ? latencyMetric(r.metric).percentile : undefined;
  const key = rowKey(r);
  const p = a.points.find((x) => x.key === key);
  const at = p?.attribution;
  if (pct === undefined || !at || at.n === 0 || r.real === null || r.sim === null) return DASH;
  const q = (xs: Float64Array) => percentileOf(xs, pct);
  const gap = r.real - r.sim;
  const harness = q(at.latency) - q(at.withoutHarness);
  return `of ${gap >= 0 ? '+' : ''}${ms(gap)} ms, ${ms(harness)} ms is the harness (transit p${r.metric.slice(1)} ${ms(q(at.transit))} ms)`;
}
