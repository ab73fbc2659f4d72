// Expanding a matrix into its points, in a fixed order (the golden files and --resume depend on it): each
// dimension multiplies the points, and a dimension at its default adds nothing to a point's dims.

import { type DelaySweepEntry, sweptHedge } from './delay-sweep.ts';
import type { PointDims } from './dimensions.ts';
import { errorProbVariants, pointModel } from './error-probs.ts';
import type { Transport } from './grpc-hedging-schema.ts';
import { type HedgeConfig, hedgerOf } from './hedge-config.ts';
import type { Matrix } from './matrix-schema.ts';
import { perturbationText } from './perturb.ts';
import type { Point } from './point.ts';
import { replicaVariants } from './replica-dims.ts';

/**
 * Every point of the matrix, ordered time scale → perturbation → seed → cancellation → config → delay →
 * transport → replica dims → clients → failure probability → load (each in file order; model/replica-dims.ts
 * orders the replica dims). A point's model is the matrix's with its failure probability (model/error-probs.ts).
 */
export function expandMatrix(m: Matrix): Point[] {
  const out: Point[] = [];
  for (const k of timeScales(m)) {
    for (const perturb of (m.perturb ?? [{}]).map(perturbationText)) {
      for (const seed of m.seeds) {
        for (const cancellation of m.cancellation) {
          for (const config of m.configs) {
            const variants = delayVariants(config, m.delaysMs).flatMap((v) =>
              transportVariants(v, m.transport),
            );
            for (const { config: c, dims: base } of variants) {
              const dimsList = replicaVariants(c, base, m)
                .flatMap((d) => clientVariants(d, m.clients))
                .flatMap((d) => errorProbVariants(d, m.errorProbs));
              for (const dims of dimsList) {
                for (const load of m.loads) {
                  const all = withPerturbation(withTimeScale(dims, k), perturb);
                  out.push({
                    config: c,
                    load,
                    cancellation,
                    seed,
                    calls: m.calls,
                    warmupFraction: m.warmupFraction,
                    model: pointModel(m.model, all),
                    ...(all === undefined ? {} : { dims: all }),
                  });
                }
              }
            }
          }
        }
      }
    }
  }
  return out;
}

/** `dims` with a perturbation's text, the real side's own dimension; none ('') adds nothing. */
function withPerturbation(dims: PointDims | undefined, perturb: string): PointDims | undefined {
  return perturb === '' ? dims : { ...dims, perturb };
}

/**
 * The time scales a matrix's points run at: its list, or [1] when it has none. An unresolved "auto" expands
 * as 1 (the simulator's answer in model time does not depend on k); `hedgebench run` resolves it first.
 */
export function timeScales(m: Pick<Matrix, 'timeScale'>): number[] {
  return Array.isArray(m.timeScale) ? m.timeScale : [1];
}

/** `dims` with the time scale, the last of a point's dimensions; k = 1 is the default and adds nothing. */
export function withTimeScale(dims: PointDims | undefined, k: number): PointDims | undefined {
  return k === 1 ? dims : { ...dims, timeScale: k };
}

// A delay sweep replaces a hedged configuration's delay (a number: its delayMs; "p95": its percentile rule,
// model/delay-sweep.ts); an unhedged one has no delay and runs once.
function delayVariants(
  config: HedgeConfig,
  delaysMs: readonly DelaySweepEntry[] | undefined,
): { config: HedgeConfig; dims?: PointDims }[] {
  if (delaysMs === undefined || config.hedge === undefined) return [{ config }];
  return delaysMs.map((d) => ({
    config: { ...config, hedge: sweptHedge(config.hedge!, d) },
    dims: { delayMs: d },
  }));
}

/** The clients dimension on top of `dims`: one client is the default, so it adds no `clients` there. */
function clientVariants(
  dims: PointDims | undefined,
  clients: readonly number[] | undefined,
): (PointDims | undefined)[] {
  return (clients ?? [1]).map((k) => (k === 1 ? dims : { ...dims, clients: k }));
}

// Each transport of the matrix (HTTP/1.1 by default, absent from the dimensions); a configuration hedged by
// grpc-js runs over gRPC only, and says so in its `hedger`.
function transportVariants(
  v: { config: HedgeConfig; dims?: PointDims },
  transports: readonly Transport[] | undefined,
): { config: HedgeConfig; dims?: PointDims }[] {
  const grpcJs = hedgerOf(v.config) === 'grpc-js';
  return (transports ?? ['http1'])
    .filter((t) => !grpcJs || t === 'grpc')
    .map((t) => {
      const dims: PointDims = {
        ...v.dims,
        ...(t === 'grpc' ? { transport: 'grpc' as const } : {}),
        ...(grpcJs ? { hedger: 'grpc-js' as const } : {}),
      };
      return Object.keys(dims).length === 0 ? { config: v.config } : { config: v.config, dims };
    });
}
