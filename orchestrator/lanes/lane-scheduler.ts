// The lane scheduler: a run's pending points measured one at a time per lane, in lane order (laneOrder: the
// calibration point, then the longest first), each lane taking the next point when it finishes one. When the
// lanes share one machine, the points the simulation predicts to collapse heavily come last, one at a time
// with no other lane beside them. A lane whose hosts stop answering is retired and its point requeued for
// the others; each point measured is recorded (raw files → the real row) as it ends.

import type { ClientFigures, PointRow } from '../../contract/index.ts';
import type { Matrix } from '../../model/index.ts';
import { startCpuMeter } from '../../runtime/index.ts';
import { realRow } from '../plan/analysis-steps.ts';
import type { PlannedPoint } from '../plan/plan.ts';
import { aloneWords, laneOrder } from '../plan/plan-estimate.ts';
import { collapseDrains, collapsingKeys } from '../plan/plan-simulation.ts';
import { RunProgress } from '../plan/progress-eta.ts';
import type { ProgressReporter } from '../plan/progress-reporter.ts';
import type { RunFolder } from '../plan/run-folder.ts';
import type { RunRecord } from '../plan/run-record.ts';
import { foreignLoad } from '../point/foreign-load.ts';
import { measurePoint, type PointTiming } from '../point/point-runner.ts';
import { type Lane, laneReachable } from './lanes.ts';

/** What the scheduler measures with: the run's folder, matrix, options and lanes planned, and its stop signal. */
interface LaneScheduler {
  folder: RunFolder;
  matrix: Matrix;
  /** Lanes the run was planned with (one that could not be brought up still counts in names and progress). */
  laneCount: number;
  /** The lanes share one machine's cores: points predicted to collapse are measured alone. */
  lanesShareMachine: boolean;
  allowAnyTarget: boolean;
  timing: PointTiming;
  reporter: ProgressReporter;
  signal: AbortSignal;
  say: (text: string) => void;
}

/**
 * Measures the pending points, one at a time per lane, in lane order, until done or interrupted; on lanes
 * that share a machine, the points predicted to collapse heavily after the others, one at a time. A lane whose
 * hosts stop answering is retired and its point goes back to the queue; when no lane is left, the points
 * not measured stay pending (--resume).
 */
export async function measureOnLanes(
  s: LaneScheduler,
  pending: PlannedPoint[],
  record: RunRecord,
  sim: Map<string, PointRow>,
  lanes: Lane[],
): Promise<void> {
  const alone = s.lanesShareMachine ? collapsingKeys(pending, sim) : new Set<string>();
  const together = laneOrder(
    pending.filter((pp) => !alone.has(pp.key)),
    s.laneCount,
  );
  const last = pending.filter((pp) => alone.has(pp.key));
  if (last.length > 0) {
    s.say(`hedgebench: ${aloneWords(last.length)}: ${last.map((pp) => pp.key).join(', ')}`);
    s.folder.event('alone', { keys: last.map((pp) => pp.key) });
  }
  const progress = new RunProgress(
    s.reporter,
    [...together, ...last],
    s.laneCount,
    alone,
    collapseDrains(pending, sim),
  );
  let alive = lanes;
  const queue: PlannedPoint[] = [];
  const work = async (lane: Lane): Promise<void> => {
    while (!s.signal.aborted) {
      const pp = queue.shift();
      if (!pp) return;
      const lost = await measureOne(s, pp, lane, record, sim, progress, pending.length);
      if (lost !== null) {
        queue.unshift(pp);
        alive = alive.filter((l) => l !== lane);
        s.say(
          `hedgebench: lane ${lane.index} is lost (${lost}); ${pp.key} and the points after it go to the ${alive.length} other lane${alive.length === 1 ? '' : 's'}`,
        );
        s.folder.event('lane-down', { lane: lane.index, error: lost });
        return;
      }
    }
  };
  // A lane lost after the others emptied the queue leaves its point there: the lanes left take it.
  for (const [points, width] of [
    [together, Number.POSITIVE_INFINITY],
    [last, 1],
  ] as const) {
    queue.push(...points);
    while (queue.length > 0 && alive.length > 0 && !s.signal.aborted) {
      await Promise.all(alive.slice(0, width).map(work));
    }
  }
  if (queue.length > 0 && alive.length === 0 && !s.signal.aborted) {
    s.say(`hedgebench: every lane is lost; ${queue.length} points stay pending`);
  }
}

/** Measures one point on a lane and records it; returns why the lane is lost (the point goes back), else null. */
async function measureOne(
  s: LaneScheduler,
  pp: PlannedPoint,
  lane: Lane,
  record: RunRecord,
  sim: Map<string, PointRow>,
  progress: RunProgress,
  total: number,
): Promise<string | null> {
  const folder = s.folder;
  const many = s.laneCount > 1;
  record.started(pp, many ? lane.index : undefined);
  const position = progress.startPoint(pp, lane.index);
  const cpu = startCpuMeter();
  const outcome = await measurePoint(pp, {
    ...lane,
    folder,
    run: folder.name,
    loadgenHosts: lane.hosts.loadgens,
    foreign: s.matrix.target ? foreignLoad(s.matrix.target, s.allowAnyTarget) : null,
    timing: s.timing,
    sendLagThresholdMs: s.matrix.fidelity.sendLagP99Ms,
    signal: s.signal,
    onStatus: (s, ms) => progress.status(s, ms, lane.index),
    note: (text) => {
      s.say(`hedgebench: ${many ? `lane ${lane.index}: ` : ''}${text}`);
      folder.event('note', { key: pp.key, text, ...(many ? { lane: lane.index } : {}) });
    },
  });
  if (outcome.kind === 'interrupted') {
    progress.endPoint(lane.index);
    record.interrupted(pp, outcome.reason);
    return null;
  }
  // A failed point on a lane that no longer answers was the lane's fault: measure it elsewhere.
  if (outcome.kind === 'failed' && many && lane.hosts.mode === 'ssh' && !(await laneReachable(lane))) {
    progress.requeue(lane.index);
    record.requeued(pp, lane.index, outcome.reason);
    return outcome.reason;
  }
  progress.endPoint(lane.index);
  // What the hypervisor took while the point ran: its reasons name it if the point fails a self-check.
  const stealShare = cpu.read()?.stealShare;
  if (stealShare !== undefined) record.entry(pp).stealShare = stealShare;
  let reason = outcome.kind === 'failed' ? outcome.reason : null;
  let real: PointRow | null = null;
  let clients: ClientFigures[] | null = null;
  if (reason === null) {
    try {
      ({ row: real, clients } = realRow(folder.dir, record.entry(pp), s.matrix));
    } catch (err) {
      reason = `its raw files could not be turned into a row: ${(err as Error).message}`;
    }
  }
  const calls = outcome.kind === 'failed' ? (outcome.drained?.calls ?? 0) : outcome.drained.calls;
  record.finished(
    pp,
    sim.get(pp.key),
    real,
    reason,
    { calls, phasesMs: outcome.kind === 'done' ? outcome.phases : undefined },
    clients,
  );
  const at = `[${position}/${total}] ${pp.key}${many ? ` (lane ${lane.index})` : ''}`;
  s.say(reason === null ? `${at}: done (${calls} calls measured)` : `${at}: FAILED: ${reason}`);
  return null;
}
