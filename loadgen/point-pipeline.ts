// A point's pipeline: the configuration's policies (or a plain pipeline when grpc-js hedges, since the
// channel does it), with the balancer in front when the point has several replicas.

import { type Clock, type Pipeline, pipeline } from '../library/index.ts';
import { addBalancer, buildPipeline, hedgerOf, SINGLE_REPLICA } from '../model/index.ts';
import type { ResolvedOptions } from './options.ts';

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
