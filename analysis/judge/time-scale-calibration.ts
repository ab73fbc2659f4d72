// The calibration point of each time scale, and which calibration a point is judged with: its own time
// scale's, since the harness's overhead in model time shrinks as the scale grows.

import { pointKey } from '../../contract/index.ts';
import { calibrationCandidates, type Matrix, timeScaleOf } from '../../model/index.ts';
import { type Calibration, calibrationFromRows } from './calibration.ts';
import type { PointAnalysis } from './point-analysis.ts';

/** The calibration point of one time scale and what it measured. */
export interface TimeScaleCalibration {
  k: number;
  point: PointAnalysis;
  calibration: Calibration | null;
}

/** The calibration a point is judged with: its own time scale's (the first one's when that scale has none). */
export function calibrationOf(
  a: { calibrations: TimeScaleCalibration[]; calibration: Calibration | null },
  p: Pick<PointAnalysis, 'entry'>,
): Calibration | null {
  const k = timeScaleOf(p.entry);
  return a.calibrations.find((c) => c.k === k)?.calibration ?? a.calibration;
}

/**
 * One calibration point per time scale (model/calibration-point.ts), smallest k first, from the run's points
 * (`all`, calibration points included) and the matrix's (`points`). One the matrix already has (same key)
 * serves, and stays judged.
 */
export function timeScaleCalibrations(
  matrix: Matrix,
  all: PointAnalysis[],
  points: PointAnalysis[],
): TimeScaleCalibration[] {
  const calibrations: TimeScaleCalibration[] = [];
  for (const cand of calibrationCandidates(matrix)) {
    const key = pointKey(cand);
    const k = timeScaleOf(cand);
    const flagged = all.find((p) => p.entry.calibration === true && timeScaleOf(p.entry) === k);
    const point = flagged ?? points.find((p) => p.key === key);
    if (point === undefined) continue;
    calibrations.push({ k, point, calibration: calibrationFromRows(point.id, point.sim, point.real) });
  }
  return calibrations;
}
