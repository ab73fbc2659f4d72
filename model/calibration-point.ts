// The calibration points of a matrix: `no hedge` at a low load, one per time scale, each measuring the
// harness's own overhead at its scale.

import { referenceConfig } from './hedge-config.ts';
import { expandMatrix, timeScales, withTimeScale } from './matrix-expand.ts';
import type { Matrix } from './matrix-schema.ts';
import { type Point, pointKey } from './point.ts';

/**
 * The calibration points (`no hedge`, low load, first cancellation mode, first seed, first transport): one
 * per time scale, since the harness overhead each measures is that scale's. A point whose key the matrix
 * already has is left out (that point serves); none when the matrix has no calibration.
 */
export function calibrationPoints(m: Matrix): Point[] {
  const keys = new Set(expandMatrix(m).map(pointKey));
  return calibrationCandidates(m).filter((p) => !keys.has(pointKey(p)));
}

/** The first calibration point (the first time scale's), or null; see calibrationPoints. */
export function calibrationPoint(m: Matrix): Point | null {
  const [first] = calibrationCandidates(m);
  return first === undefined || expandMatrix(m).some((q) => pointKey(q) === pointKey(first)) ? null : first;
}

/** Every time scale's calibration point, whether or not the matrix has one of the same key. */
export function calibrationCandidates(m: Matrix): Point[] {
  const c = m.calibration;
  if (c === false) return [];
  return timeScales(m).map((k) => {
    const dims = withTimeScale(m.transport?.[0] === 'grpc' ? { transport: 'grpc' } : undefined, k);
    return {
      config: structuredClone(referenceConfig('no hedge')!),
      load: c.load,
      cancellation: m.cancellation[0],
      seed: m.seeds[0],
      calls: c.calls,
      warmupFraction: m.warmupFraction,
      model: m.model,
      ...(dims === undefined ? {} : { dims }),
    };
  });
}
