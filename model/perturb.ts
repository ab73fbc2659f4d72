// Perturbations: the real side made deliberately wrong, the verdict's test of itself (matrix `perturb`,
// docs/matrix.md). A perturbed point's target server runs a different service than the model says (service
// or stragglers slower, a worker fewer, cancels dropped, a harness-like wait before each response), or its
// load generator hedges late; the simulation of the point never sees any of it. A verdict that cannot tell a
// wrong server from the model is no verdict, and one that flags a harness-like delay the attribution takes
// out would blame the model for the harness.

import { z } from 'zod';
import { resolveHedgeOptions } from '../library/index.ts';
import type { HedgeConfig } from './hedge-config.ts';
import type { ModelParams } from './params.ts';
import type { Cancellation } from './point.ts';
import { scaleServiceTimes } from './time-scale.ts';

/** One perturbation: any of the knobs (absent = as the model says). */
export interface Perturbation {
  /** Every service time × this (body and stragglers). */
  serviceFactor?: number;
  /** Stragglers' service times × this (the uniform range, both ends). */
  stragglerFactor?: number;
  /** Workers added to the target's pool (negative: fewer); the arrival rate stays the model's. */
  workersDelta?: number;
  /** The load generator's hedge delay × this. */
  hedgeDelayFactor?: number;
  /** The target ignores propagated cancels: a cancelled attempt keeps its place or its worker. */
  dropCancellation?: boolean;
  /** The target waits this long (model ms) after releasing the worker before it answers: harness-like. */
  responseDelayMs?: number;
}

/** The knobs in the order a perturbation's text names them. */
const KNOBS = [
  'serviceFactor',
  'stragglerFactor',
  'workersDelta',
  'hedgeDelayFactor',
  'dropCancellation',
  'responseDelayMs',
] as const satisfies readonly (keyof Perturbation)[];

const factor = (what: string) =>
  z
    .number({ invalid_type_error: `must be a number (${what})` })
    .positive(`must be > 0 (${what})`)
    .max(100, 'must be ≤ 100')
    .optional();

/** One entry of the matrix's `perturb` list: {} is the unperturbed real side. */
export const perturbationSchema = z
  .object({
    serviceFactor: factor('every service time × this, e.g. 1.03'),
    stragglerFactor: factor("the stragglers' service times × this, e.g. 1.1"),
    workersDelta: z
      .number({ invalid_type_error: 'must be a whole number of workers, e.g. -1' })
      .int('must be a whole number of workers, e.g. -1')
      .optional(),
    hedgeDelayFactor: factor('the hedge delay × this, e.g. 1.25'),
    dropCancellation: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
    responseDelayMs: z
      .number({ invalid_type_error: 'must be a number of model ms, e.g. 1' })
      .min(0, 'must be ≥ 0 (model ms the target waits before each response)')
      .max(60_000, 'must be ≤ 60000 ms')
      .optional(),
  })
  .strict();

/** A perturbation as its dimension value, e.g. `serviceFactor=1.03` or `stragglerFactor=1.1+workersDelta=-1`; '' = none. */
export function perturbationText(p: Perturbation): string {
  return KNOBS.filter((k) => p[k] !== undefined && p[k] !== false)
    .map((k) => (p[k] === true ? k : `${k}=${p[k]}`))
    .join('+');
}

/** A dimension value back as the perturbation it names (the inverse of perturbationText). */
export function parsePerturbation(text: string): Perturbation {
  const out: Record<string, number | boolean> = {};
  for (const part of text.split('+').filter((x) => x !== '')) {
    const [k, v] = part.split('=');
    if (!(KNOBS as readonly string[]).includes(k))
      throw new RangeError(`unknown perturbation knob "${k}" in "${text}"`);
    out[k] = v === undefined ? true : Number(v);
  }
  return out as Perturbation;
}

/** The service the perturbed target runs (undilated; the target dilates it as it does the model's). */
export function perturbedModel(m: ModelParams, p: Perturbation): ModelParams {
  const out = scaleServiceTimes(m, p.serviceFactor ?? 1);
  const stf = p.stragglerFactor ?? 1;
  return {
    ...out,
    workers: m.workers + (p.workersDelta ?? 0),
    stragglerMinMs: out.stragglerMinMs * stf,
    stragglerMaxMs: out.stragglerMaxMs * stf,
  };
}

/** The configuration the perturbed load generator hedges with (its hedge delay × hedgeDelayFactor). */
export function perturbedConfig(c: HedgeConfig, p: Perturbation): HedgeConfig {
  const f = p.hedgeDelayFactor;
  if (f === undefined || f === 1) return c;
  const out: HedgeConfig = { ...c };
  if (c.hedge !== undefined) out.hedge = { ...c.hedge, delayMs: resolveHedgeOptions(c.hedge).delayMs * f };
  if (c.grpcHedging !== undefined)
    out.grpcHedging = { ...c.grpcHedging, hedgingDelayMs: c.grpcHedging.hedgingDelayMs * f };
  return out;
}

/** The cancellation the perturbed target applies: a dropped cancel leaves the attempt where it is. */
export function perturbedCancellation(c: Cancellation, p: Perturbation): Cancellation {
  return p.dropCancellation === true ? 'ignore' : c;
}

/** Why a perturbation cannot apply to a matrix's service; empty when it can. */
export function perturbationIssues(p: Perturbation, workers: number, where: string): string[] {
  const left = workers + (p.workersDelta ?? 0);
  return left < 1
    ? [
        `${where}.workersDelta: ${p.workersDelta} leaves ${left} workers of the model's ${workers}; a target needs at least 1 (use a delta ≥ ${1 - workers})`,
      ]
    : [];
}
