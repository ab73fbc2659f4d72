// The schema of a matrix's `model` object (and of a probe's model.json): the service model's parameters,
// every one optional over the reference model.

import { z } from 'zod';
import type { ModelParams } from './params.ts';
import { positive } from './schema-messages.ts';
import { meanServiceMs } from './service-time.ts';

/** Longest service time the target server takes (target-server/config.ts), ms. */
const MAX_SERVICE_MS = 60_000;

/** The matrix's `model` object: every field optional over the reference model (a probe's model.json too). */
export const modelSchema = z
  .object({
    workers: z.number().int('must be a whole number').min(1, 'must be ≥ 1').max(4096).optional(),
    medianMs: positive('median service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    sigma: z.number().min(0, 'must be ≥ 0').max(5, 'must be ≤ 5').optional(),
    stragglerProb: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]').optional(),
    stragglerMinMs: z.number().min(0, 'must be ≥ 0').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    stragglerMaxMs: z.number().min(0, 'must be ≥ 0').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms').optional(),
    service: z
      .discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('exponential'),
            meanMs: positive('mean service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms'),
          })
          .strict(),
        z
          .object({
            kind: z.literal('constant'),
            ms: positive('service time in ms').max(MAX_SERVICE_MS, 'must be ≤ 60000 ms'),
          })
          .strict(),
      ])
      .optional(),
    errorProb: z
      .number({ invalid_type_error: 'must be a number (the probability that an attempt fails, e.g. 0.01)' })
      .min(0, 'must be in [0, 1) (the probability that an attempt fails; 0 = none)')
      .lt(1, 'must be in [0, 1) (1 would fail every attempt of every call: nothing would be measured)')
      .optional(),
    errorMs: z
      .number({ invalid_type_error: 'must be a number (ms a failing attempt holds its worker, e.g. 1)' })
      .min(0, 'must be ≥ 0 (ms a failing attempt holds its worker before its error is sent)')
      .max(MAX_SERVICE_MS, 'must be ≤ 60000 ms')
      .optional(),
    errorCorrelation: z
      .number({
        invalid_type_error: "must be a number (the probability that a call's attempts fail together)",
      })
      .min(0, "must be in [0, 1] (the probability that a call's attempts share attempt 1's error draw)")
      .max(1, "must be in [0, 1] (the probability that a call's attempts share attempt 1's error draw)")
      .optional(),
    pushback: z
      .object({
        queueAbove: z
          .number({ invalid_type_error: 'must be a number (attempts waiting, e.g. 16)' })
          .int('must be a whole number of attempts waiting')
          .min(0, 'must be ≥ 0 (a response pushes back while more than this many attempts wait)'),
        ms: positive('ms of no hedges a response asks for, e.g. 100').max(
          MAX_SERVICE_MS,
          'must be ≤ 60000 ms',
        ),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * What the model schema cannot check field by field: stragglers' range, and a mean that gives a rate.
 * `sweptFailures`: the matrix's `errorProbs` gives the failure probability per point, so errorMs and
 * errorCorrelation shape those failures without a model.errorProb of their own.
 */
export function modelIssues(
  model: ModelParams,
  at: (path: (string | number)[]) => string,
  sweptFailures = false,
): string[] {
  const issues: string[] = [];
  if (model.stragglerMaxMs < model.stragglerMinMs) {
    issues.push(
      `${at(['model', 'stragglerMaxMs'])}: ${model.stragglerMaxMs} is below stragglerMinMs ${model.stragglerMinMs}; make max ≥ min`,
    );
  }
  // errorMs and errorCorrelation shape failures; without errorProb > 0 there are none for them to shape.
  if (!((model.errorProb ?? 0) > 0) && !sweptFailures) {
    for (const f of ['errorMs', 'errorCorrelation'] as const) {
      if (model[f] !== undefined) {
        issues.push(
          `${at(['model', f])}: has no effect without model.errorProb > 0 (no attempt fails); set errorProb, e.g. 0.01 (or sweep it: errorProbs [0, 0.01]), or drop ${f}`,
        );
      }
    }
  }
  const meanMs = meanServiceMs(model);
  if (!(meanMs > 0 && Number.isFinite(meanMs))) {
    issues.push(
      `${at(['model'])}: the mean service time is ${meanMs} ms (stragglerProb ${model.stragglerProb}, stragglers ${model.stragglerMinMs}–${model.stragglerMaxMs} ms), so no arrival rate follows from a load; lower stragglerProb or raise stragglerMaxMs`,
    );
  }
  return issues;
}
