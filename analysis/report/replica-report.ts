// The report's section on replicas: for every measured point with several, how busy each replica was (beside
// what the simulation predicts for it) and how long its workers held an attempt, with the degraded one named.
// Absent when no point has replicas, so the reports of one-queue runs stay as they were.

import { formatLoad } from '../../contract/index.ts';
import type { Matrix } from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { entryPoint } from '../read/sim-calls-file.ts';
import { ms, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** The slow replica of a point in words, e.g. `replica 0 (service × 2)`; null when none is slow. */
function slowReplicaText(p: PointAnalysis): string | null {
  const slow = p.replicas?.find((r) => r.slow);
  return slow ? `replica ${slow.replica} (service × ${p.entry.dims?.slowReplica})` : null;
}

/**
 * Each replica's utilisation as the simulator predicts it for the point (by measured calls, like the
 * measured one); nulls when the point is not the matrix's. sim.csv keeps one utilisation per point, so the
 * point is simulated again here: a few thousand calls, milliseconds.
 */
function simulatedUse(p: PointAnalysis, matrix: Matrix): (number | null)[] {
  const point = entryPoint(p.entry, matrix);
  const replicas = point ? runPoint(point).replicas : undefined;
  return (p.replicas ?? []).map((r) => replicas?.[r.replica]?.utilization ?? null);
}

/** The per-replica table, or nothing when no measured point has replicas. */
export function replicaBlocks(a: RunAnalysis): Block[] {
  const pts = everyPoint(a).filter(
    (p): p is PointAnalysis & { replicas: NonNullable<PointAnalysis['replicas']> } => p.replicas !== null,
  );
  if (pts.length === 0) return [];
  const head = [...POINT_ID_HEAD, 'replica', 'attempts', 'utilisation', 'sim utilisation', 'mean hold ms'];
  const rows = pts.flatMap((p) => {
    const sim = simulatedUse(p, a.manifest.matrix);
    return p.replicas.map((r, i) => [
      configLabel(p),
      formatLoad(p.id.load),
      p.id.cancellation,
      String(p.id.seed),
      r.slow ? `${r.replica} (slow × ${p.entry.dims?.slowReplica})` : String(r.replica),
      String(r.attempts),
      pct(r.utilization, 1),
      pct(sim[i], 1),
      ms(r.meanHoldMs),
    ]);
  });
  const slow = pts
    .map((p) => [p, slowReplicaText(p)] as const)
    .filter(([, t]) => t !== null)
    .map(
      ([p, t]) =>
        `${configLabel(p)} at ${formatLoad(p.id.load)} (${p.id.cancellation}): the slow one is ${t}`,
    );
  return [
    { kind: 'heading', level: 2, text: 'Replicas' },
    {
      kind: 'paragraph',
      text: "Each replica of a measured point with several, from the target servers' attempt records: attempts of measured calls it received, its utilisation (busy worker time over workers × the measured span; the points table's utilisation is the same over all replicas' workers) beside the simulator's for the same replica, and the mean time a worker held one of its attempts.",
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 ? 'right' : 'left')) },
    ...(slow.length > 0 ? [{ kind: 'list', items: slow } as Block] : []),
  ];
}
