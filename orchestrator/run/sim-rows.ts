// The simulated side of a run: every planned point simulated once per run (cached in sim.csv, so a
// resumed run does not simulate again), before any real point runs and competes for the CPU.

import { existsSync, readFileSync } from 'node:fs';
import { formatPointsCsv, type PointRow, parsePointsCsv, rowKey } from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { runPoints } from '../../simulator/index.ts';
import type { PlannedPoint } from './plan.ts';

/** Below this many simulated calls, worker threads cost more to start than they save. */
const THREADS_FROM_CALLS = 400_000;

/** Simulated rows by point key: read from `cachePath` when there, the missing ones simulated and cached. */
export async function simulatePlan(
  plan: readonly PlannedPoint[],
  cachePath: string,
): Promise<Map<string, PointRow>> {
  const rows = new Map<string, PointRow>();
  if (existsSync(cachePath)) {
    try {
      for (const r of parsePointsCsv(readFileSync(cachePath, 'utf8'))) rows.set(rowKey(r), r);
    } catch {
      rows.clear(); // a damaged cache is recomputed, never trusted
    }
  }
  const missing = plan.filter((pp) => !rows.has(pp.key));
  if (missing.length > 0) {
    const calls = missing.reduce((n, pp) => n + pp.point.calls, 0);
    const results = await runPoints(
      missing.map((pp) => pp.point),
      calls < THREADS_FROM_CALLS ? { threads: 0 } : {},
    );
    for (const [i, r] of results.entries()) rows.set(missing[i].key, r.row);
    const ordered = plan.map((pp) => rows.get(pp.key)).filter((r): r is PointRow => r !== undefined);
    writeFileAtomicSync(cachePath, formatPointsCsv(ordered));
  }
  return rows;
}
