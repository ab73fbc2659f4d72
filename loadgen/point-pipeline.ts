// A point's pipeline: the configuration's policies (or a plain pipeline when grpc-js hedges, since the
// channel does it), with the balancer in front when the point has several replicas; and the most attempts
// a call of the configuration makes.

import { A6_MAX_ATTEMPTS, type Clock, type Pipeline, pipeline } from '../library/index.ts';
import { addBalancer, buildPipeline, type HedgeConfig, hedgerOf, SINGLE_REPLICA } from '../model/index.ts';
import type { ResolvedOptions } from './loadgen-options.ts';

/** A fresh pipeline of `o`'s configuration (its own budget and limit), without a balancer. */
export function newPointPipeline(o: ResolvedOptions, clock: Clock): Pipeline {
  return hedgerOf(o.config) === 'grpc-js' ? pipeline(clock) : buildPipeline(o.config, clock);
}

/** The point's pipeline for `R` targets: with R > 1, each attempt's replica picked by the balancer. */
export function pointPipeline(o: ResolvedOptions, clock: Clock, R: number): Pipeline {
  // The balancer picks each attempt's replica with the simulator's draws for this seed (model/replicas.ts).
  return R > 1
    ? addBalancer(
        newPointPipeline(o, clock),
        {
          ...SINGLE_REPLICA,
          replicas: R,
          balancer: o.balancer ?? 'random',
          hedgeTo: o.hedgeTo ?? 'other',
        },
        o.seed,
      )
    : newPointPipeline(o, clock);
}

/**
 * The most attempts a call of `config` can write (hedgebench's hedge, a tied call's copies, or grpc-js's within
 * gRFC A6's cap).
 */
export function attemptsPerCall(config: HedgeConfig): number {
  const g = config.grpcHedging;
  if (config.tied !== undefined) return config.tied.copies ?? 2;
  return config.hedge ? (config.hedge.maxAttempts ?? 2) : g ? Math.min(g.maxAttempts, A6_MAX_ATTEMPTS) : 1;
}
