// The report's "Every point" table: each point's state, rates and utilisation as `sim / real`, its send lag,
// self-check and verdict.

import { formatLoad, type PointRow } from '../../contract/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { pointVerdictText } from '../judge/point-verdict.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { failureColumns } from './failure-columns.ts';
import { DASH, fixed, ms, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';

function pair(p: PointAnalysis, f: (r: PointRow) => string): string {
  return `${p.sim ? f(p.sim) : DASH} / ${p.real ? f(p.real) : DASH}`;
}

/** One row per point of the matrix, in manifest order; the failure columns only where some call failed. */
export function pointsTable(a: RunAnalysis): Block {
  const failures = failureColumns(a.points);
  const head = [
    ...POINT_ID_HEAD,
    'state',
    'requests/call (sim / real)',
    'hedge rate',
    'skipped rate',
    'rejected rate',
    ...failures.map((f) => f.head),
    'utilisation',
    'send-lag p99 ms (real)',
    'valid',
    'verdict',
  ];
  const rows = a.points.map((p) => [
    configLabel(p),
    formatLoad(p.id.load),
    p.id.cancellation,
    String(p.id.seed),
    p.entry.state,
    pair(p, (r) => fixed(r.requests_per_call, 3)),
    pair(p, (r) => pct(r.hedge_rate)),
    pair(p, (r) => pct(r.skipped_rate)),
    pair(p, (r) => pct(r.rejected_rate)),
    ...failures.map((f) => pair(p, f.cell)),
    pair(p, (r) => pct(r.utilization, 1)),
    p.real ? ms(p.real.send_lag_p99_ms) : DASH,
    p.real ? (p.real.valid ? 'yes' : 'NO') : DASH,
    pointVerdictText(p),
  ]);
  const lastNumber = 10 + failures.length;
  return {
    kind: 'table',
    head,
    rows,
    align: head.map((_, i) => (i >= 5 && i <= lastNumber ? 'right' : 'left')),
  };
}
