// What the target server measured for one attempt, handed to the route that answers it (GET /work, gRPC Work),
// and the callback that gets it.

import type { AttemptEnd } from '../contract/index.ts';
import type { TargetServerError } from './errors.ts';

/** What the server measured for one attempt; the /work response is built from it. */
export interface AttemptResult {
  /** `failed`: the model failed it (its worker held errorMs); the route answers 503 / UNAVAILABLE. */
  ended: AttemptEnd;
  queueMs: number;
  /** Measured hold time (end − start); 0 when never started. */
  serviceMs: number;
  /** The model's draw for this attempt (a failing one's: errorMs, the hold it was meant to have). */
  intendedMs: number;
  worker: number;
  /**
   * No hedges for this long, wall ms: the model's pushback rule fired as the response left (the queue was
   * longer than its bound); 0 = none. The route sends it as `hedgebench-pushback-ms`.
   */
  pushbackMs: number;
  /** A tied copy a sibling's peer cancel removed from the queue, or dropped on arrival: answered 410. */
  peerCancelled?: true;
}

/** Gets an attempt's result (or the pool's failure) and returns when it wrote the response (NaN: none). */
export type Done = (r: AttemptResult | TargetServerError) => number;
