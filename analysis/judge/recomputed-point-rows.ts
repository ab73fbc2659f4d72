// points.csv with its real rows recomputed from raw/ (`compare --rewrite-points`): the analysis's fresh rows
// in the file's own order, the rows it does not know kept as they are.

import { type PointRow, rowKey } from '../../contract/index.ts';
import { readPointsCsv } from '../read/run-folder-reader.ts';
import { everyPoint, type RunAnalysis } from './run-analysis.ts';

/** The run's points.csv rows with every real row replaced by the one recomputed from raw/ (same order). */
export function recomputedPointRows(a: RunAnalysis): PointRow[] {
  const fresh = new Map<string, PointRow>();
  // The matrix's points first, then the calibration points: rows not yet in points.csv keep that order.
  for (const p of [...a.points, ...everyPoint(a).filter((q) => !a.points.includes(q))]) {
    if (p.realSource === 'raw' && p.real) fresh.set(p.key, p.real);
  }
  const out: PointRow[] = [];
  const seen = new Set<string>();
  for (const r of readPointsCsv(a.runDir)) {
    const k = rowKey(r);
    if (r.source === 'real' && fresh.has(k)) {
      out.push(fresh.get(k)!);
      seen.add(k);
    } else out.push(r);
  }
  for (const [k, r] of fresh) if (!seen.has(k)) out.push(r);
  return out;
}
