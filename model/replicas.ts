// Replicas behind a client-side balancer, and slowness a hedge cannot escape: the settings of one point
// (R worker pools, the balancer, where hedges go, correlated stragglers, one degraded replica) and the pure
// functions the simulator and the real harness share to act on them.

import type { BalancerDraw, BalancerName, HedgeTarget, Pipeline } from '../library/index.ts';
import { attemptFails, errorHoldMs } from './attempt-failure.ts';
import type { ModelParams } from './params.ts';
import { STREAM, uniform } from './rng.ts';
import { correlatedServiceTimeMs, serviceTimeMs } from './service-time.ts';

/** How a point's service is replicated. Load stays defined against the total capacity, R × workers. */
export interface ReplicaSetup {
  /** R ≥ 1 target servers, each its own pool of `workers` and its own FIFO queue. */
  replicas: number;
  /** How the client picks a replica for each attempt. */
  balancer: BalancerName;
  /** `other`: a hedge never goes to a replica this call already used (while one is left); `any`. */
  hedgeTo: HedgeTarget;
  /** c ∈ [0, 1]: with probability c a call's attempts share the first attempt's straggler draw. */
  correlation: number;
  /** Service times on replica SLOW_REPLICA are multiplied by this (1 = no degraded replica). */
  slowReplica: number;
}

/** Today's model: one replica, independent stragglers, no degraded replica. */
export const SINGLE_REPLICA: Readonly<ReplicaSetup> = Object.freeze({
  replicas: 1,
  balancer: 'random',
  hedgeTo: 'other',
  correlation: 0,
  slowReplica: 1,
});

/** The degraded replica, when `slowReplica` > 1. */
export const SLOW_REPLICA = 0;

/** The balancer's counter-based draws for a point's seed: the same in the simulator and the load generator. */
export function balancerDraw(seed: number): BalancerDraw {
  return (call, attempt, k) => uniform(seed, STREAM.balancer + k, call, attempt);
}

/** Adds the point's balancer, innermost, to `p` when there is more than one replica; returns `p`. */
export function addBalancer(p: Pipeline, setup: ReplicaSetup, seed: number): Pipeline {
  if (setup.replicas <= 1) return p;
  return p.balance({
    replicas: setup.replicas,
    strategy: setup.balancer,
    hedgeTo: setup.hedgeTo,
    draw: balancerDraw(seed),
  });
}

/** Replica of attempt `attempt` of a call (0 without a balancer). */
export function replicaOf(replicas: number[] | undefined, attempt: number): number {
  return replicas === undefined ? 0 : replicas[attempt];
}

/** The service time of (call, attempt) on `replica`: the model's draw, correlated, scaled on the slow replica. */
export function replicaServiceMs(
  params: ModelParams,
  setup: ReplicaSetup,
  seed: number,
  call: number,
  attempt: number,
  replica: number,
): number {
  const ms = correlatedServiceTimeMs(params, seed, call, attempt, setup.correlation);
  return replica === SLOW_REPLICA && setup.slowReplica !== 1 ? ms * setup.slowReplica : ms;
}

/**
 * How long a worker holds (call, attempt) on `replica`, ms: a failing attempt's errorMs, else its service draw
 * (today's draw itself when the setup is the one-queue model) — what the simulator's worker holds, and what a
 * target server running `params` intends to. `fails`: the attempt's failure draw, when the caller has it.
 */
export function intendedHoldMs(
  params: ModelParams,
  setup: ReplicaSetup,
  seed: number,
  call: number,
  attempt: number,
  replica: number,
  fails = attemptFails(params, seed, call, attempt),
): number {
  if (fails) return errorHoldMs(params);
  return isSingleReplica(setup)
    ? serviceTimeMs(params, seed, call, attempt)
    : replicaServiceMs(params, setup, seed, call, attempt, replica);
}

/** True when the setup is today's one-queue model (every output must then be byte-identical to before). */
function isSingleReplica(setup: ReplicaSetup): boolean {
  return (
    setup.replicas === 1 &&
    setup.correlation === 0 &&
    setup.slowReplica === 1 &&
    setup.balancer === SINGLE_REPLICA.balancer &&
    setup.hedgeTo === SINGLE_REPLICA.hedgeTo
  );
}

/** A point's setup from its dimensions (an absent field is its default). */
export function replicaSetupOf(dims: Partial<ReplicaSetup> | undefined): ReplicaSetup {
  if (dims === undefined) return SINGLE_REPLICA;
  return {
    replicas: dims.replicas ?? SINGLE_REPLICA.replicas,
    balancer: dims.balancer ?? SINGLE_REPLICA.balancer,
    hedgeTo: dims.hedgeTo ?? SINGLE_REPLICA.hedgeTo,
    correlation: dims.correlation ?? SINGLE_REPLICA.correlation,
    slowReplica: dims.slowReplica ?? SINGLE_REPLICA.slowReplica,
  };
}
