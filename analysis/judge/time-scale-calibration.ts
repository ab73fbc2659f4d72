// The calibration point of each time scale and transport, and which one stands for a point: its own time
// scale's and transport's (sim+net takes its transport from it), since the harness's overhead in model time
// shrinks as the scale grows and differs by wire.

import { pointKey } from '../../contract/index.ts';
import {
  calibrationCandidates,
  calibrationGroup,
  type Matrix,
  type PointDims,
  type Transport,
  timeScaleOf,
  transportOf,
} from '../../model/index.ts';
import { type Calibration, calibrationFromRows, formatCalibrationLine } from './calibration.ts';
import type { PointAnalysis } from './point-analysis.ts';

/** The calibration point of one time scale and transport, and what it measured. */
export interface TimeScaleCalibration {
  k: number;
  transport: Transport;
  /** calibrationGroup of the points it judges. */
  group: string;
  point: PointAnalysis;
  calibration: Calibration | null;
}

/**
 * The calibration a point is judged with, from calibrations by calibrationGroup (in run order): its own time
 * scale's and transport's; else its time scale's first (a grpc-js point of a matrix that lists no gRPC
 * transport); undefined when its scale has none. Sim and sim+net both choose with it.
 */
export function calibrationFor<T>(
  byGroup: ReadonlyMap<string, T>,
  entry: { dims?: PointDims },
): T | undefined {
  const own = byGroup.get(calibrationGroup(entry));
  if (own !== undefined && own !== null) return own;
  const prefix = `${timeScaleOf(entry)}|`;
  for (const [group, v] of byGroup) if (group.startsWith(prefix) && v !== null) return v;
  return undefined;
}

/**
 * The calibration lines of a run (comparison.txt, `compare`'s output, the report's header): one, or with
 * several calibration points one each, named by what tells them apart (`time scale 5, over gRPC: …`).
 */
export function calibrationLines(a: {
  calibrations: TimeScaleCalibration[];
  calibration: Calibration | null;
}): string[] {
  if (a.calibrations.length <= 1)
    return [formatCalibrationLine(a.calibration, a.calibrations[0]?.point.rows ?? [])];
  const varies = (f: (c: TimeScaleCalibration) => unknown) => new Set(a.calibrations.map(f)).size > 1;
  const byScale = varies((c) => c.k);
  const byWire = varies((c) => c.transport);
  return a.calibrations.map((c) => {
    const label = [
      byScale ? `time scale ${c.k}` : '',
      byWire ? `over ${c.transport === 'grpc' ? 'gRPC' : 'HTTP/1.1'}` : '',
    ].filter((x) => x !== '');
    return `${label.length > 0 ? `${label.join(', ')}: ` : ''}${formatCalibrationLine(c.calibration, c.point.rows)}`;
  });
}

/**
 * One calibration point per time scale and transport (model/calibration-point.ts), smallest k first, from the run's points
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
    const group = calibrationGroup(cand);
    const flagged = all.find((p) => p.entry.calibration === true && calibrationGroup(p.entry) === group);
    const point = flagged ?? points.find((p) => p.key === key);
    if (point === undefined) continue;
    calibrations.push({
      k: timeScaleOf(cand),
      transport: transportOf(cand),
      group,
      point,
      calibration: calibrationFromRows(point.id, point.sim, point.real),
    });
  }
  return calibrations;
}
