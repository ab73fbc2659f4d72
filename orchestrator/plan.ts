// The run plan: the matrix's points in run order, each with its key, slug and expected duration.
import { type PointEntry, pointKey, pointSlug } from '../contract/index.ts';
import {
  arrivalRatePerMs,
  calibrationPoint,
  expandMatrix,
  type Matrix,
  MatrixInvalidError,
  type Point,
} from '../model/index.ts';
import { readMatrixFile } from '../simulator/index.ts';

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
export async function loadMatrixFile(
  path: string,
  o: { calls?: number; seed?: number } = {},
): Promise<Matrix> {
  return readMatrixFile(path, o);
}

/** The points of a matrix in run order: the calibration point first (if any), then the matrix's order. */
export function planPoints(m: Matrix): PlannedPoint[] {
  const cal = calibrationPoint(m);
  const points = [
    ...(cal ? [{ p: cal, calibration: true }] : []),
    ...expandMatrix(m).map((p) => ({ p, calibration: false })),
  ];
  const plan = points.map(({ p, calibration }, index) => ({
    index,
    point: p,
    key: pointKey(p),
    slug: pointSlug(p),
    calibration,
    expectedMs: p.calls / arrivalRatePerMs(p.load, p.model, p.dims?.replicas ?? 1),
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
