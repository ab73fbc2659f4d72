// The run plan: the matrix's points in run order, each with its key, slug and expected duration (what
// `hedgebench run --plan` estimates from it is plan-estimate.ts).
import { type PointEntry, pointKey, pointSlug } from '../../contract/index.ts';
import {
  arrivalRatePerMs,
  calibrationPoints,
  dilatePoint,
  expandMatrix,
  type Matrix,
  MatrixInvalidError,
  type MatrixOverrides,
  type Point,
  pointClients,
  replicaSetupOf,
  timeScaleOf,
} from '../../model/index.ts';
import { readMatrixFile } from '../../simulator/index.ts';

/** One point of the plan. */
export interface PlannedPoint {
  /** 0-based position in run order. */
  index: number;
  point: Point;
  key: string;
  slug: string;
  calibration: boolean;
  /** calls / λ: how long the load generator's schedule lasts, ms. */
  expectedMs: number;
}

/** Reads and validates a matrix file, then applies --calls / --seed (the simulator's reader: one set of errors). */
export async function loadMatrixFile(path: string, o: MatrixOverrides = {}): Promise<Matrix> {
  return readMatrixFile(path, o);
}

/** The points of a matrix in run order: the calibration point first (if any), then the matrix's order. */
export function planPoints(m: Matrix): PlannedPoint[] {
  const points = [
    ...calibrationPoints(m).map((p) => ({ p, calibration: true })),
    ...expandMatrix(m).map((p) => ({ p, calibration: false })),
  ];
  const plan = points.map(({ p, calibration }, index) => ({
    index,
    point: p,
    key: pointKey(p),
    slug: pointSlug(p),
    calibration,
    // Wall-clock time: a dilated point's schedule lasts k times longer.
    expectedMs: p.calls / arrivalRatePerMs(p.load, dilatePoint(p).model, p.dims?.replicas ?? 1),
  }));
  // Slugs name files and Redis keys: two names that differ only in punctuation would overwrite each other.
  const bySlug = new Map<string, string>();
  const clashes: string[] = [];
  for (const pp of plan) {
    const other = bySlug.get(pp.slug);
    if (other !== undefined && other !== pp.point.config.name) {
      clashes.push(
        `configs: ${JSON.stringify(other)} and ${JSON.stringify(pp.point.config.name)} both become the file name ${pp.slug}; rename one so they differ in letters or digits`,
      );
    }
    bySlug.set(pp.slug, pp.point.config.name);
  }
  if (clashes.length > 0) {
    throw new MatrixInvalidError(`the matrix is not usable:\n  - ${clashes.join('\n  - ')}`, clashes);
  }
  return plan;
}

/** The manifest entry of a planned point that has not run yet. */
export function pendingEntry(pp: PlannedPoint): PointEntry {
  const p = pp.point;
  return {
    key: pp.key,
    slug: pp.slug,
    config: p.config.name,
    load: p.load,
    cancellation: p.cancellation,
    seed: p.seed,
    ...(p.dims === undefined ? {} : { dims: p.dims }),
    calls: p.calls,
    calibration: pp.calibration,
    state: 'pending',
  };
}

/** The distinct time scales of a plan's points, smallest first. */
export function planTimeScales(plan: readonly PlannedPoint[]): number[] {
  return [...new Set(plan.map((pp) => timeScaleOf(pp.point)))].sort((a, b) => a - b);
}

/** What `--lanes auto` sizes a lane by: the plan's smallest k, its points, its most replicas and clients. */
export function laneDemand(plan: readonly PlannedPoint[]) {
  return {
    timeScale: Math.min(...planTimeScales(plan)),
    points: plan.length,
    replicas: Math.max(1, ...plan.map((p) => replicaSetupOf(p.point.dims).replicas)),
    clients: Math.max(1, ...plan.map((p) => pointClients(p.point))),
  };
}

/**
 * What a dilated plan costs, in words for the run's first line and the plan (empty when undilated): the
 * time scales, and the longest point's schedule when it runs past an hour.
 */
export function dilationWords(plan: readonly PlannedPoint[]): string {
  const scales = planTimeScales(plan);
  if (scales.every((k) => k === 1)) return '';
  const longest = Math.max(...plan.map((pp) => pp.expectedMs));
  const total = plan.reduce((ms, pp) => ms + pp.expectedMs, 0);
  const hours =
    longest >= 3_600_000
      ? `; its longest point lasts ${formatDuration(longest)} — lower the time scale or the calls to shorten it`
      : '';
  return `time scale ${scales.join(', ')} (every duration × k, every rate ÷ k; results in model ms): ${formatDuration(total)} of schedules on the wall clock${hours}`;
}

/** A wall time in words: `4.2 s`, `37 s`, `5m02s`, `1h05m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
