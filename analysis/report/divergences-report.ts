// The report's Divergences section: every metric where measurement and simulation disagree or stay
// undecided, with the interval of their difference (harness taken out, paired by call), the margin, how much
// the harness's parts added, and for an undecided one about how many calls would decide it.

import type { ComparisonRow } from '../../contract/index.ts';
import { formatLoad, isLatencyMetric, metricSpec, rowKey, rowLabel } from '../../contract/index.ts';
import type { MarginMetric } from '../../model/index.ts';
import { callsToDecide } from '../judge/equivalence.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { judgedOnReplay } from '../judge/sim-net.ts';
import { DASH } from './report-cells.ts';
import type { Block } from './report-doc.ts';

function num(r: ComparisonRow, v: number | null): string {
  if (v === null) return DASH;
  return r.metric === 'collapse' ? (v ? 'true' : 'false') : v.toFixed(metricSpec(r.metric).decimals);
}

/** `[low, high]` of sim − real′, an open end as ∞. */
function diffInterval(r: ComparisonRow): string {
  if (r.diffCiLow === null && r.diffCiHigh === null) return DASH;
  const lo = r.diffCiLow === null ? '−∞' : num(r, r.diffCiLow);
  const hi = r.diffCiHigh === null ? '∞' : num(r, r.diffCiHigh);
  return `[${lo}, ${hi}]`;
}

/** What would decide an undecided line: about how many calls its interval needs to clear the margin. */
function decideText(a: RunAnalysis, r: ComparisonRow): string {
  if (r.verdict !== 'undecided') return DASH;
  const p = a.points.find((x) => x.key === rowKey(r)) ?? a.calibrationPoint;
  // A tied point judged against its replay was paired with it (sim-net.ts).
  const diffs = p && judgedOnReplay(p) ? p.simNetDiffs : p?.diffs;
  const d = diffs?.[r.metric as MarginMetric];
  if (d === undefined || r.margin === null) return 'no calls paired (no raw files)';
  const n = callsToDecide(d, r.margin);
  return n === null
    ? 'no number of calls (open interval, or on the margin)'
    : `about ${n.toLocaleString('en-US')} calls`;
}

/** A table of the diverging and undecided metrics, or a line saying there is none. */
export function divergenceBlocks(a: RunAnalysis): Block[] {
  const off = a.comparison.filter(
    (r) => r.verdict === 'diverges' || r.verdict === 'collapse-mismatch' || r.verdict === 'undecided',
  );
  if (off.length === 0) return [{ kind: 'paragraph', text: 'No metric diverges, and none is undecided.' }];
  const head = [
    'configuration',
    'load',
    'cancellation',
    'seed',
    'metric',
    'sim',
    'real',
    'harness adds',
    'sim − real′, 95 %',
    'margin ±',
    'verdict',
    'calls to decide',
  ];
  const rows = off.map((r) => [
    rowLabel(r),
    formatLoad(r.load),
    r.cancellation,
    String(r.seed),
    r.metric,
    num(r, r.sim),
    num(r, r.real),
    isLatencyMetric(r.metric) && r.allowance !== null ? num(r, r.allowance) : DASH,
    diffInterval(r),
    num(r, r.margin),
    r.verdict,
    decideText(a, r),
  ]);
  return [
    {
      kind: 'paragraph',
      text: 'real′ is the measurement with each call’s own harness parts taken out (send lag, request and response transit, hold overshoot, response delay); "harness adds" = real − real′ at that percentile.',
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 && i <= 9 ? 'right' : 'left')) },
  ];
}
