// The matrix's `errorProbs` dimension: fast failures swept like `loads`, because one matrix has one model and
// a study must compare winner rules at 0 %, 1 % and 5 % failing attempts. Each value sets the point's
// `model.errorProb` (the model's errorMs and errorCorrelation shape the failures); 0 is the default and
// leaves the point exactly as without the dimension — its model, key, slug and rows.

import { z } from 'zod';
import type { PointDims } from './dimensions.ts';
import type { ModelParams } from './params.ts';

/** The schema of `errorProbs`: probabilities in [0, 1), as `model.errorProb`'s own. */
export const errorProbsSchema = z
  .array(
    z
      .number({ invalid_type_error: 'must be a number (the probability that an attempt fails, e.g. 0.01)' })
      .min(0, 'must be in [0, 1) (the probability that an attempt fails; 0 = none)')
      .lt(1, 'must be in [0, 1) (1 would fail every attempt of every call: nothing would be measured)'),
  )
  .min(1, 'must list at least one probability, e.g. [0, 0.01, 0.05], or be left out')
  .optional();

/** True when the matrix sweeps some failure probability above 0 (its model's errorMs then has a use). */
export function sweepsFailures(m: { errorProbs?: readonly number[] }): boolean {
  return (m.errorProbs ?? []).some((p) => p > 0);
}

/**
 * A point's model: the matrix's with the point's `errorProb`. Without one (the dimension at 0, or absent) the
 * model's failure shape (errorMs, errorCorrelation) is dropped when nothing fails — it shapes no failure, and
 * every reader of a point's model (the load generator's spec, the target's config) takes it as today's.
 */
export function pointModel(model: ModelParams, dims: PointDims | undefined): ModelParams {
  const p = dims?.errorProb;
  if (p !== undefined && p > 0) return { ...model, errorProb: p };
  if ((model.errorProb ?? 0) > 0 || (model.errorMs === undefined && model.errorCorrelation === undefined))
    return model;
  const { errorMs: _ms, errorCorrelation: _c, ...rest } = model;
  return rest;
}

/** `dims` for each listed probability (0 adds nothing), in file order. */
export function errorProbVariants(
  dims: PointDims | undefined,
  errorProbs: readonly number[] | undefined,
): (PointDims | undefined)[] {
  return (errorProbs ?? [0]).map((p) => (p === 0 ? dims : { ...dims, errorProb: p }));
}

/** What the dimension cannot take: a duplicate value, and a failure probability given twice. */
export function errorProbsIssues(m: {
  errorProbs?: readonly number[];
  model?: { errorProb?: number };
}): string[] {
  if (m.errorProbs === undefined) return [];
  const out: string[] = [];
  const seen = new Set<number>();
  for (const p of m.errorProbs) {
    if (seen.has(p)) out.push(`errorProbs: ${p} appears twice; list each probability once`);
    seen.add(p);
  }
  if ((m.model?.errorProb ?? 0) > 0)
    out.push(
      `errorProbs: the model already sets errorProb ${m.model!.errorProb}, and each point takes its errorProb from errorProbs; give it in one place: drop model.errorProb (keep errorMs and errorCorrelation there), or drop errorProbs`,
    );
  return out;
}

/** Notes for the plan: what the dimension means with a service hedgebench did not build. */
export function errorProbsNotes(m: { errorProbs?: readonly number[]; target?: unknown }): string[] {
  if (m.target === undefined || !sweepsFailures(m)) return [];
  return [
    'errorProbs with a foreign target: the simulator fails that share of attempts, but hedgebench cannot make your service fail — it fails by itself, as often as it does; each errorProb point measures the same service (at the arrival rate its model gives), so read its real rows as the service against that model',
  ];
}
