// Turns the running points' status polls into progress lines with ETAs for each point and the whole run
// (one point at a time, or one per lane in parallel).
import type { StatusHash } from '../../contract/index.ts';
import { modelMs, timeScaleOf } from '../../model/index.ts';
import type { PlannedPoint } from './plan.ts';
import type { ProgressReporter } from './progress-reporter.ts';

/** Per-point cost beyond the schedule (start, drain, row) assumed until one point has been measured. */
const FIRST_GUESS_OVERHEAD_MS = 3_000;

const num = (v: string | undefined): number | null => {
  if (v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

interface Running {
  pp: PlannedPoint;
  /** 1-based, in the order points started. */
  position: number;
  start: number;
}

/** Progress of a run through its pending points, on `lanes` lanes (1: lines as a one-lane run always had). */
export class RunProgress {
  private started = 0;
  private readonly running = new Map<number, Running>();
  private overheadSum = 0;
  private measured = 0;

  /**
   * `points` in the order the lanes take them; those keyed in `alone` run one at a time, those keyed in
   * `drains` last that much past their schedule (plan-simulation.ts, collapseDrains).
   */
  constructor(
    private readonly reporter: ProgressReporter,
    private readonly points: readonly PlannedPoint[],
    private readonly lanes = 1,
    private readonly alone: ReadonlySet<string> = new Set(),
    private readonly drains: ReadonlyMap<string, number> = new Map(),
  ) {}

  /** What a point should last, schedule and drain, before its overhead. */
  private lastsMs(pp: PlannedPoint): number {
    return pp.expectedMs + (this.drains.get(pp.key) ?? 0);
  }

  /** A point starts on a lane; returns its 1-based position in the run. */
  startPoint(pp: PlannedPoint, lane = 0): number {
    this.started++;
    this.running.set(lane, { pp, position: this.started, start: Date.now() });
    return this.started;
  }

  /** A point that goes back to the queue (its lane was lost): it will start again. */
  requeue(lane: number): void {
    this.started--;
    this.running.delete(lane);
    this.reporter.drop(lane);
  }

  /** A status poll of a lane's running point. */
  status(s: StatusHash, elapsedMs: number, lane = 0): void {
    const cur = this.running.get(lane);
    if (!cur) return;
    const { pp } = cur;
    const overhead = this.measured > 0 ? this.overheadSum / this.measured : FIRST_GUESS_OVERHEAD_MS;
    const etaPointMs = Math.max(0, this.lastsMs(pp) - elapsedMs);
    // What no lane has started yet after this point: shared by the lanes, or one at a time when alone.
    const rest = this.points
      .slice(this.started)
      .reduce((t, p) => t + (this.lastsMs(p) + overhead) / (this.alone.has(p.key) ? 1 : this.lanes), 0);
    // The generator reports wall-clock ms; the line speaks model ms, as the results do.
    const k = timeScaleOf(pp.point);
    const model = (v: number | null) => (v === null ? null : modelMs(v, k));
    this.reporter.update({
      ...(this.lanes > 1 ? { lane } : {}),
      point: cur.position,
      points: this.points.length,
      key: pp.key,
      calls: pp.point.calls,
      completed: num(s.completed) ?? 0,
      inflight: num(s.inflight),
      p99Ms: model(num(s.p99_ms)),
      sendLagP99Ms: model(num(s.send_lag_p99_ms)),
      etaPointMs,
      etaRunMs: etaPointMs + rest,
    });
  }

  /** A lane's point ended (whatever its outcome): learn the per-point overhead. */
  endPoint(lane = 0): void {
    const cur = this.running.get(lane);
    if (!cur) return;
    this.running.delete(lane);
    this.overheadSum += Math.max(0, Date.now() - cur.start - this.lastsMs(cur.pp));
    this.measured++;
    this.reporter.drop(lane);
  }
}
