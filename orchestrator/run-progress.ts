// Turns the running point's status polls into progress lines with ETAs for the point and the whole run.
import type { PlannedPoint } from './plan.ts';
import type { StatusSnapshot } from './point-watch.ts';
import type { ProgressReporter } from './progress.ts';

/** Per-point cost beyond the schedule (start, drain, row) assumed until one point has been measured. */
const FIRST_GUESS_OVERHEAD_MS = 3_000;

const num = (v: string | undefined): number | null => {
  if (v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** Progress of a run through its pending points. */
export class RunProgress {
  private index = -1;
  private pointStart = 0;
  private overheadSum = 0;
  private measured = 0;

  constructor(
    private readonly reporter: ProgressReporter,
    private readonly points: readonly PlannedPoint[],
  ) {}

  /** 1-based position of the current point. */
  get position(): number {
    return this.index + 1;
  }

  /** A point starts. */
  startPoint(pp: PlannedPoint): void {
    this.index = this.points.indexOf(pp);
    this.pointStart = Date.now();
  }

  /** A status poll of the running point. */
  status(s: StatusSnapshot, elapsedMs: number): void {
    const pp = this.points[this.index];
    if (!pp) return;
    const completed = num(s.completed) ?? 0;
    const overhead = this.measured > 0 ? this.overheadSum / this.measured : FIRST_GUESS_OVERHEAD_MS;
    const etaPointMs = Math.max(0, pp.expectedMs - elapsedMs);
    const rest = this.points.slice(this.index + 1).reduce((t, p) => t + p.expectedMs + overhead, 0);
    this.reporter.update({
      point: this.index + 1,
      points: this.points.length,
      key: pp.key,
      calls: pp.point.calls,
      completed,
      inflight: num(s.inflight),
      p99Ms: num(s.p99_ms),
      sendLagP99Ms: num(s.send_lag_p99_ms),
      etaPointMs,
      etaRunMs: etaPointMs + rest,
    });
  }

  /** The current point ended (whatever its outcome): learn the per-point overhead. */
  endPoint(): void {
    const pp = this.points[this.index];
    if (!pp) return;
    this.overheadSum += Math.max(0, Date.now() - this.pointStart - pp.expectedMs);
    this.measured++;
    this.reporter.clear();
  }
}
