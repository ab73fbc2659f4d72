// The calibration points of a matrix: `no hedge` at a low load, one per time scale and transport, each
// measuring the harness's own overhead at its scale and over its wire: the report's line on what the harness
// adds must describe the wire and the clock of the points it stands beside.

import type { PointDims } from './dimensions.ts';
import { pointModel } from './error-probs.ts';
import type { Transport } from './grpc-hedging-schema.ts';
import { referenceConfig } from './hedge-config.ts';
import { expandMatrix, timeScales, withTimeScale } from './matrix-expand.ts';
import type { Matrix } from './matrix-schema.ts';
import { type Point, pointKey } from './point.ts';
import { timeScaleOf } from './time-scale.ts';

/** Which calibration point judges a point: the one of its time scale and transport (`5|grpc`). */
export function calibrationGroup(p: { dims?: PointDims }): string {
  return `${timeScaleOf(p)}|${transportOf(p)}`;
}

/** A point's transport (absent = HTTP/1.1). */
export function transportOf(p: { dims?: PointDims }): Transport {
  return p.dims?.transport ?? 'http1';
}

/**
 * The calibration points (`no hedge`, low load, first cancellation mode, first seed): one per time scale
 * and transport, since the harness overhead each measures is that scale's and that wire's. A point whose key the matrix
 * already has is left out (that point serves); none when the matrix has no calibration.
 */
export function calibrationPoints(m: Matrix): Point[] {
  const keys = new Set(expandMatrix(m).map(pointKey));
  return calibrationCandidates(m).filter((p) => !keys.has(pointKey(p)));
}

/** The first calibration point (the first time scale's over the first transport), or null; see calibrationPoints. */
export function calibrationPoint(m: Matrix): Point | null {
  const [first] = calibrationCandidates(m);
  return first === undefined || expandMatrix(m).some((q) => pointKey(q) === pointKey(first)) ? null : first;
}

/** Every time scale's and transport's calibration point, whether or not the matrix has one of the same key. */
export function calibrationCandidates(m: Matrix): Point[] {
  const c = m.calibration;
  if (c === false) return [];
  const transports = m.transport ?? ['http1'];
  return timeScales(m).flatMap((k) =>
    transports.map((t) => {
      const dims = withTimeScale(t === 'grpc' ? { transport: 'grpc' } : undefined, k);
      return {
        config: structuredClone(referenceConfig('no hedge')!),
        load: c.load,
        cancellation: m.cancellation[0],
        seed: m.seeds[0],
        calls: c.calls,
        warmupFraction: m.warmupFraction,
        // Nothing fails at the calibration point unless the model itself says (an errorProbs sweep does not).
        model: pointModel(m.model, dims),
        ...(dims === undefined ? {} : { dims }),
      };
    }),
  );
}
