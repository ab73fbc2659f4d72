// The "Every point" tables' columns for failures (model.errorProb, the errorProbs dimension): the share of
// calls that returned an error to the caller and the share that hedged because an attempt failed. Each is
// shown only when some row of the run has it, so a run without failures renders without them.

import type { PointRow } from '../../contract/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { pct } from './report-cells.ts';

/** One optional column: its head and its cell for a row (— when the row has no value). */
interface FailureColumn {
  head: string;
  cell: (r: PointRow | undefined) => string;
}

const rowsOf = (ps: readonly PointAnalysis[]) =>
  ps.flatMap((p) => [p.sim, p.real]).filter((r): r is PointRow => r !== undefined);

/** The failure columns some row of `points` has a value for, in the order failed → hedged on error. */
export function failureColumns(points: readonly PointAnalysis[]): FailureColumn[] {
  const rows = rowsOf(points);
  const out: FailureColumn[] = [];
  // failed_rate is always written; it is worth a column only when some call failed.
  if (rows.some((r) => (r.failed_rate ?? 0) > 0))
    out.push({ head: 'failed rate', cell: (r) => pct(r?.failed_rate) });
  if (rows.some((r) => typeof r.hedged_on_error_rate === 'number' && Number.isFinite(r.hedged_on_error_rate)))
    out.push({ head: 'hedged on error', cell: (r) => pct(r?.hedged_on_error_rate) });
  return out;
}
