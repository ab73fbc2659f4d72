// Service time of one attempt: the model's distribution, drawn from the counter-based generator so the
// simulator and the target server give an attempt the same demand.

import type { ModelParams } from './params.ts';
import { keyLanes, OPEN_OFFSET, STREAM, streamUniform } from './rng.ts';

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
    const u = streamUniform(lanes, STREAM.serviceA);
    return params.stragglerMinMs + u * (params.stragglerMaxMs - params.stragglerMinMs);
  }
  // Box–Muller: exact normal from two uniforms, no approximation tables.
  const r = Math.sqrt(-2 * Math.log(streamUniform(lanes, STREAM.serviceA) + OPEN_OFFSET));
  const z = r * Math.cos(TWO_PI * streamUniform(lanes, STREAM.serviceB));
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
