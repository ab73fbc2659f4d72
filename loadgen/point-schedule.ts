// A point's arrival schedule as every one of its clients sees it: the rate (all clients together), each
// call's intended send time, and the wall-time cap that follows from the last of them.

import { ArrivalSchedule, arrivalRatePerMs } from '../model/index.ts';
import type { ResolvedOptions } from './loadgen-options.ts';

/** The schedule of `o`'s point against `R` replicas. */
interface PointSchedule {
  /** Calls/ms, all clients together. */
  ratePerMs: number;
  /** Intended send time of every call, ms from t0 (this client sends only its share). */
  intended: Float64Array;
  /** The point's wall-time cap, ms: `maxSeconds`, else three times the schedule plus 30 s. */
  maxMs: number;
}

/** Draws the whole schedule before the first send, so memory and arrivals are fixed up front. */
export function pointSchedule(o: ResolvedOptions, R: number): PointSchedule {
  const ratePerMs = arrivalRatePerMs(o.load, o.model, R);
  const intended = new Float64Array(o.calls);
  const schedule = new ArrivalSchedule(o.seed, ratePerMs, o.calls);
  for (let i = 0; i < o.calls; i++) intended[i] = schedule.at(i);
  const maxMs = (o.maxSeconds ?? (intended[o.calls - 1] * 3) / 1000 + 30) * 1000;
  return { ratePerMs, intended, maxMs };
}
