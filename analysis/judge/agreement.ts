// The headline of a comparison: how close sim and real came where they agree, in one line — for each
// metric, the farthest any agreeing line's interval of the difference reached (a fraction of the simulated
// value for a latency, absolute for a rate), against the margin it had to stay within — and, per line, the
// smallest difference the measurement would have called a divergence.

import { type ComparisonRow, metricSpec } from '../../contract/index.ts';
import { isRelativeMargin, type MarginMetric, type Margins } from '../../model/index.ts';
import { detectableDifference } from './equivalence.ts';

/** The metric's name in a sentence (`requests per call`). */
export function metricWords(m: MarginMetric): string {
  return metricSpec(m).label;
}

const pct = (x: number) => `${+(x * 100).toFixed(2)} %`;

/** How far a line's interval of the difference reaches, in the margin's terms (a fraction, or absolute). */
function reach(r: ComparisonRow): number | null {
  if (r.diffCiLow === null || r.diffCiHigh === null || r.sim === null) return null;
  const far = Math.max(Math.abs(r.diffCiLow), Math.abs(r.diffCiHigh));
  return isRelativeMargin(r.metric as MarginMetric) ? (r.sim === 0 ? null : far / Math.abs(r.sim)) : far;
}

/** The smallest difference this line would have called a divergence, in the margin's terms; null when open. */
export function detectable(r: ComparisonRow): number | null {
  if (r.diffCiLow === null || r.diffCiHigh === null || r.margin === null || r.sim === null) return null;
  const d = detectableDifference(r.diffCiLow, r.diffCiHigh, r.margin);
  return isRelativeMargin(r.metric as MarginMetric) ? (r.sim === 0 ? null : d / Math.abs(r.sim)) : d;
}

/** A value in the margin's terms as text: `1.2 %` for a latency, `0.0030` for a rate. */
export function marginText(metric: MarginMetric, x: number): string {
  return isRelativeMargin(metric) ? pct(x) : x.toFixed(metricSpec(metric).decimals);
}

/**
 * `agreement: sim and real agree within 0.1 % at p50, 0.3 % at p99, …` over the matrix's agreeing lines, with
 * the margins beside; `agreement: none` when no line agrees.
 */
export function agreementLine(rows: readonly ComparisonRow[], margins: Margins): string {
  const parts: string[] = [];
  for (const m of Object.keys(margins) as MarginMetric[]) {
    const reaches = rows.filter((r) => r.metric === m && r.verdict === 'agrees').map(reach);
    const known = reaches.filter((x): x is number => x !== null);
    if (known.length === 0) continue;
    const worst = Math.max(...known);
    const at = isRelativeMargin(m)
      ? `${marginText(m, worst)} at ${metricWords(m)}`
      : `±${marginText(m, worst)} in ${metricWords(m)}`;
    parts.push(`${at} (margin ${marginText(m, margins[m])})`);
  }
  if (parts.length === 0) return 'agreement: no line agrees';
  return `agreement: where they agree, sim and real are within ${parts.join(', ')}`;
}
