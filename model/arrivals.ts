// The open-loop Poisson arrival schedule: call i's intended start is a pure function of (seed, i, rate),
// identical in the simulator and the real load generator, whatever the service does.

import { meanHoldMs } from './attempt-failure.ts';
import type { ModelParams } from './params.ts';
import { STREAM, uniformOpen } from './rng.ts';

/**
 * λ in calls per ms for a load ρ = λ·E[S]/(R·workers) (the utilisation without hedging): with R replicas the
 * load is against the total capacity. With failures E[S] is the mean hold (a failing attempt's errorMs in
 * place of its service draw); without them it is the service mean itself.
 */
export function arrivalRatePerMs(load: number, params: ModelParams, replicas = 1): number {
  return (load * params.workers * replicas) / meanHoldMs(params);
}

/**
 * Intended start times, ms from the point's start: t_i = Σ_{k ≤ i} gap_k, gap_k exponential with rate λ
 * drawn from (seed, arrival stream, k). Summed in order and cached, so every reader gets the same doubles.
 */
export class ArrivalSchedule {
  private readonly times: Float64Array;
  private filled = 0;
  private last = 0;

  /** `calls` bounds the schedule; asking for a later call is a programming error. */
  constructor(
    readonly seed: number,
    readonly ratePerMs: number,
    readonly calls: number,
  ) {
    if (!(ratePerMs > 0) || !Number.isFinite(ratePerMs)) {
      throw new RangeError(`ArrivalSchedule: ratePerMs must be a positive finite number, got ${ratePerMs}`);
    }
    this.times = new Float64Array(calls);
  }

  /** The schedule of a point: its seed, its load on its model, its number of calls. */
  static forPoint(p: {
    seed: number;
    load: number;
    calls: number;
    model: ModelParams;
    dims?: { replicas?: number };
  }): ArrivalSchedule {
    return new ArrivalSchedule(p.seed, arrivalRatePerMs(p.load, p.model, p.dims?.replicas ?? 1), p.calls);
  }

  /** Intended start of call i (0-based), ms. */
  at(i: number): number {
    if (i < this.filled) return this.times[i];
    if (!(i >= 0 && i < this.calls) || !Number.isInteger(i)) {
      throw new RangeError(
        `ArrivalSchedule.at: call index must be an integer in [0, ${this.calls}), got ${i}`,
      );
    }
    const inv = 1 / this.ratePerMs;
    let t = this.last;
    for (let k = this.filled; k <= i; k++) {
      t += -Math.log(uniformOpen(this.seed, STREAM.arrival, k, 0)) * inv;
      this.times[k] = t;
    }
    this.filled = i + 1;
    this.last = t;
    return t;
  }
}
