// The matrix's replica dimensions — `replicas`, `balancer`, `hedgeTo`, `correlation`, `slowReplica`, each a
// list like `loads` — their schema, and how they expand into point dimensions. A value at its default, or
// one that cannot change the point (a balancer for one replica, hedgeTo or correlation for an unhedged
// configuration), is left out of the point's dims, so such points keep today's keys and are not repeated.

import { z } from 'zod';
import {
  BALANCERS,
  type BalancerName,
  HEDGE_TARGETS,
  type HedgeTarget,
  MAX_REPLICAS,
} from '../library/index.ts';
import type { PointDims } from './dimensions.ts';
import type { HedgeConfig } from './hedge-config.ts';
import { SINGLE_REPLICA } from './replicas.ts';

/** Highest slow-replica factor a matrix takes. */
const MAX_SLOW_FACTOR = 100;

const list = <T extends z.ZodTypeAny>(item: T, example: string) =>
  z.array(item).min(1, `must list at least one value, e.g. ${example}, or be left out`).optional();

/** The schema of the five fields (merged into the matrix schema). */
export const replicaFieldsSchema = {
  replicas: list(
    z
      .number({ invalid_type_error: 'must be a number of replicas' })
      .int('must be a whole number of replicas')
      .min(1, 'must be ≥ 1 (1 = one service, one queue)')
      .max(MAX_REPLICAS, `must be ≤ ${MAX_REPLICAS}`),
    '[1, 4]',
  ),
  balancer: list(
    z.custom<BalancerName>().superRefine((v, ctx) => {
      if (!BALANCERS.includes(v as BalancerName)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${JSON.stringify(v)} is not a balancer; use one of ${BALANCERS.join(', ')}`,
        });
      }
    }),
    '["random", "least-outstanding"]',
  ),
  hedgeTo: list(
    z.custom<HedgeTarget>().superRefine((v, ctx) => {
      if (!HEDGE_TARGETS.includes(v as HedgeTarget)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${JSON.stringify(v)} is not a hedge target; use "other" (never a replica the call already used) or "any"`,
        });
      }
    }),
    '["other", "any"]',
  ),
  correlation: list(
    z
      .number({ invalid_type_error: 'must be a probability in [0, 1]' })
      .min(0, 'must be in [0, 1] (the probability that a call’s attempts share their straggler draw)')
      .max(1, 'must be in [0, 1] (the probability that a call’s attempts share their straggler draw)'),
    '[0, 0.5, 1]',
  ),
  slowReplica: list(
    z
      .number({ invalid_type_error: 'must be a factor ≥ 1' })
      .min(1, 'must be ≥ 1 (the factor on replica 0’s service times; 1 = no degraded replica)')
      .max(MAX_SLOW_FACTOR, `must be ≤ ${MAX_SLOW_FACTOR}`),
    '[1, 2]',
  ),
};

/** The five lists as a validated matrix holds them (absent = not swept). */
export interface ReplicaFields {
  replicas?: number[];
  balancer?: BalancerName[];
  hedgeTo?: HedgeTarget[];
  correlation?: number[];
  slowReplica?: number[];
}

/** The replica fields of a parsed matrix spec, copied (only those given). */
export function pickReplicaFields(m: ReplicaFields): ReplicaFields {
  const out: ReplicaFields = {};
  if (m.replicas !== undefined) out.replicas = [...m.replicas];
  if (m.balancer !== undefined) out.balancer = [...m.balancer];
  if (m.hedgeTo !== undefined) out.hedgeTo = [...m.hedgeTo];
  if (m.correlation !== undefined) out.correlation = [...m.correlation];
  if (m.slowReplica !== undefined) out.slowReplica = [...m.slowReplica];
  return out;
}

/** Duplicate values, one message per field (two equal values would make two points with one key). */
export function replicaFieldIssues(m: ReplicaFields): string[] {
  const issues: string[] = [];
  for (const field of ['replicas', 'balancer', 'hedgeTo', 'correlation', 'slowReplica'] as const) {
    const values = (m[field] ?? []).map(String);
    const dup = values.find((v, i) => values.indexOf(v) !== i);
    if (dup !== undefined) issues.push(`${field}: ${dup} appears twice; list each value once`);
  }
  return issues;
}

/**
 * The replica dims of `config` under the matrix's lists, in file order (replicas → balancer → hedgeTo →
 * correlation → slowReplica), merged over `base` (the delay's dims); combinations that cannot differ are
 * made once.
 */
export function replicaVariants(
  config: HedgeConfig,
  base: PointDims | undefined,
  m: ReplicaFields,
): (PointDims | undefined)[] {
  const hedged = config.hedge !== undefined;
  // A tied call's copies share stragglers as hedges do; they always go to distinct replicas (no hedgeTo).
  const copied = hedged || config.tied !== undefined;
  const seen = new Set<string>();
  const out: (PointDims | undefined)[] = [];
  for (const replicas of m.replicas ?? [SINGLE_REPLICA.replicas]) {
    for (const balancer of m.balancer ?? [SINGLE_REPLICA.balancer]) {
      for (const hedgeTo of m.hedgeTo ?? [SINGLE_REPLICA.hedgeTo]) {
        for (const correlation of m.correlation ?? [SINGLE_REPLICA.correlation]) {
          for (const slowReplica of m.slowReplica ?? [SINGLE_REPLICA.slowReplica]) {
            const dims: PointDims = { ...base };
            if (replicas !== SINGLE_REPLICA.replicas) dims.replicas = replicas;
            if (replicas > 1 && balancer !== SINGLE_REPLICA.balancer) dims.balancer = balancer;
            if (replicas > 1 && hedged && hedgeTo !== SINGLE_REPLICA.hedgeTo) dims.hedgeTo = hedgeTo;
            if (copied && correlation !== SINGLE_REPLICA.correlation) dims.correlation = correlation;
            if (slowReplica !== SINGLE_REPLICA.slowReplica) dims.slowReplica = slowReplica;
            const key = JSON.stringify(dims);
            if (seen.has(key)) continue;
            seen.add(key);
            out.push(Object.keys(dims).length === 0 ? undefined : dims);
          }
        }
      }
    }
  }
  return out;
}

/** Notes for the plan output: settings the matrix asks for that change nothing (allowed, but said). */
export function replicaNotes(m: ReplicaFields): string[] {
  const notes: string[] = [];
  const single = (m.replicas ?? [1]).includes(1);
  if (single && m.hedgeTo !== undefined) {
    notes.push('hedgeTo has no effect on the points with 1 replica (there is no other replica to hedge to)');
  }
  if (single && m.balancer !== undefined) {
    notes.push('balancer has no effect on the points with 1 replica (every attempt goes to it)');
  }
  if (m.correlation?.some((c) => c > 0) || m.hedgeTo !== undefined) {
    notes.push('hedgeTo and correlation change only hedged configurations; unhedged ones run once');
  }
  if (m.slowReplica?.some((f) => f > 1)) {
    notes.push(
      'slowReplica scales replica 0: with random balancing it gets 1/R of the load at that factor, so it collapses when load × factor ≥ 1',
    );
  }
  return notes;
}
