// The simulated side of a run: every planned point simulated once per run (cached in sim.csv, so a
// resumed run does not simulate again), before any real point runs and competes for the CPU; and what the
// lanes take from it, the points predicted to collapse.

import { existsSync, readFileSync } from 'node:fs';
import { formatPointsCsv, type PointRow, parsePointsCsv, rowKey } from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { runPoints } from '../../simulator/index.ts';
import type { PlannedPoint } from './plan.ts';

/** Below this many simulated calls, worker threads cost more to start than they save. */
const THREADS_FROM_CALLS = 400_000;

/**
 * Simulated rows by point key: read from `cachePath` when there, the missing ones simulated and cached
 * (`run --plan` gives no path: it writes nothing).
 */
export async function simulatePlan(
  plan: readonly PlannedPoint[],
  cachePath?: string,
): Promise<Map<string, PointRow>> {
  const rows = new Map<string, PointRow>();
  if (cachePath !== undefined && existsSync(cachePath)) {
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
    // A plan with tied points gives every row its extra work (as `hedgebench simulate` does): hedges' losers
    // read against tied copies'; a plan without one keeps its columns.
    const tied = results.some((r) => r.row.extra_service_share !== undefined);
    for (const [i, r] of results.entries()) {
      rows.set(missing[i].key, tied ? { ...r.row, extra_service_share: r.extraServiceShare } : r.row);
    }
    if (cachePath === undefined) return rows;
    const ordered = plan.map((pp) => rows.get(pp.key)).filter((r): r is PointRow => r !== undefined);
    writeFileAtomicSync(cachePath, formatPointsCsv(ordered));
  }
  return rows;
}

/**
 * Attempts in flight a collapsing point is predicted to hold at its end, from its simulated row: it offers
 * λ × requests per call attempts a second against a capacity of λ ÷ load, for calls ÷ λ seconds, so its
 * backlog grows to calls × (requests per call − 1 ÷ load). Zero for a point that does not collapse.
 */
export function collapseBacklog(pp: PlannedPoint, sim: PointRow | undefined): number {
  if (sim?.collapsed !== true) return 0;
  return Math.max(0, pp.point.calls * ((sim.requests_per_call ?? 1) - 1 / pp.point.load));
}

/**
 * How long a collapsing point runs past its schedule while its backlog (collapseBacklog) drains at the
 * capacity λ ÷ load, wall ms: schedule × (requests per call × load − 1). Without it a collapsing point's
 * estimate is its schedule alone, well short of what it takes (bench/RESULTS.md, "Collapses measured alone").
 */
export function collapseDrainMs(pp: PlannedPoint, sim: PointRow | undefined): number {
  return (collapseBacklog(pp, sim) * pp.point.load * pp.expectedMs) / pp.point.calls;
}

/** The points of `plan` predicted to collapse, by key, with their drain (collapseDrainMs). */
export function collapseDrains(
  plan: readonly PlannedPoint[],
  sim: ReadonlyMap<string, PointRow>,
): Map<string, number> {
  return new Map(
    plan.map((pp) => [pp.key, collapseDrainMs(pp, sim.get(pp.key))] as const).filter(([, ms]) => ms > 0),
  );
}

/**
 * A collapse predicted to end with at least this many attempts in flight is measured alone: set between the
 * backlogs of the collapses that took their neighbours' cores and the quick preset's light one, which holds
 * about what its unhedged neighbour at the same load holds and gains nothing alone (bench/RESULTS.md,
 * "Collapses measured alone").
 */
export const ALONE_BACKLOG = 500;

/**
 * The keys of the points the simulation predicts to collapse heavily (collapseBacklog ≥ ALONE_BACKLOG).
 * Lanes that share one machine measure them alone, after the others: thousands of attempts in flight (up to
 * the generator's cap) keep a point's load generator and target busy enough to take the cores from the points
 * measured beside it, which then fail their self-checks (bench/RESULTS.md, "Collapses measured alone").
 */
export function collapsingKeys(
  plan: readonly PlannedPoint[],
  sim: ReadonlyMap<string, PointRow>,
): Set<string> {
  return new Set(
    plan.filter((pp) => collapseBacklog(pp, sim.get(pp.key)) >= ALONE_BACKLOG).map((pp) => pp.key),
  );
}
