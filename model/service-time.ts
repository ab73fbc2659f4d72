// Service time of one attempt: the model's distribution, drawn from the counter-based generator so the
// simulator and the target server give an attempt the same demand.

import type { ModelParams } from './params.ts';
import { keyLanes, OPEN_OFFSET, STREAM, streamUniform, uniform } from './rng.ts';

const TWO_PI = 2 * Math.PI;
// The key's lanes are computed once per attempt and shared by its streams (same values as uniform()).
const lanes = new Int32Array(2);

/**
 * The intended service time (ms) of attempt `attempt` (1-based) of call `call`: log-normal body
 * (median, sigma) or, with probability stragglerProb, uniform in [stragglerMin, stragglerMax];
 * or the textbook distribution of `params.service` when set.
 */
export function serviceTimeMs(params: ModelParams, seed: number, call: number, attempt: number): number {
  const o = params.service;
  if (o !== undefined && o.kind === 'constant') return o.ms;
  keyLanes(seed, call, attempt, lanes);
  if (o !== undefined) return -o.meanMs * Math.log(streamUniform(lanes, STREAM.serviceA) + OPEN_OFFSET);
  if (params.stragglerProb > 0 && streamUniform(lanes, STREAM.serviceKind) < params.stragglerProb) {
    return stragglerMs(params, lanes);
  }
  return bodyMs(params, lanes);
}

/**
 * Like serviceTimeMs, with correlated slowness: with probability `correlation` (drawn once per call) the
 * call's attempts share attempt 1's straggler draw — all stragglers of attempt 1's length, or none — while
 * each keeps its own body draw. A slow path common to every replica, which a hedge cannot escape.
 * `correlation` 0 is serviceTimeMs exactly. Textbook services (`params.service`) have no stragglers to share.
 */
export function correlatedServiceTimeMs(
  params: ModelParams,
  seed: number,
  call: number,
  attempt: number,
  correlation: number,
): number {
  if (
    correlation <= 0 ||
    attempt === 1 ||
    params.service !== undefined ||
    !(correlation >= 1 || uniform(seed, STREAM.correlation, call, 0) < correlation)
  ) {
    return serviceTimeMs(params, seed, call, attempt);
  }
  keyLanes(seed, call, 1, lanes);
  if (params.stragglerProb > 0 && streamUniform(lanes, STREAM.serviceKind) < params.stragglerProb) {
    return stragglerMs(params, lanes);
  }
  keyLanes(seed, call, attempt, lanes);
  return bodyMs(params, lanes);
}

function stragglerMs(params: ModelParams, keyed: Int32Array): number {
  const u = streamUniform(keyed, STREAM.serviceA);
  return params.stragglerMinMs + u * (params.stragglerMaxMs - params.stragglerMinMs);
}

// Box–Muller: exact normal from two uniforms, no approximation tables.
function bodyMs(params: ModelParams, keyed: Int32Array): number {
  const r = Math.sqrt(-2 * Math.log(streamUniform(keyed, STREAM.serviceA) + OPEN_OFFSET));
  const z = r * Math.cos(TWO_PI * streamUniform(keyed, STREAM.serviceB));
  return params.medianMs * Math.exp(params.sigma * z);
}

/** E[S] in ms, analytically: (1 − p)·median·e^(σ²/2) + p·(min + max)/2, or the override's mean. */
export function meanServiceMs(params: ModelParams): number {
  const o = params.service;
  if (o !== undefined) return o.kind === 'constant' ? o.ms : o.meanMs;
  const body = params.medianMs * Math.exp((params.sigma * params.sigma) / 2);
  const straggler = (params.stragglerMinMs + params.stragglerMaxMs) / 2;
  return (1 - params.stragglerProb) * body + params.stragglerProb * straggler;
}
