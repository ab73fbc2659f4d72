// The model's failures fitted from the probe's low-load phase: the share of requests the service answered
// with a non-2xx status becomes model.errorProb, their latency above the network floor model.errorMs. One
// request at a time, nothing queues behind the probe, so a status there is the service's own failure rate,
// not overload; a timeout or a network error is no answer and is left out (the probe judges those apart).

import { percentileOf } from '../contract/index.ts';

/** The fitted failures, and what they rest on. */
export interface ErrorFit {
  /** Answers with a non-2xx status / all answers (2xx and non-2xx). */
  errorProb: number;
  /** Median latency of those answers less the floor's median, ms (≥ 0): how long a failure holds. */
  errorMs: number;
  /** How many answers failed with a status, and of how many answers. */
  failed: number;
  answers: number;
  /** The statuses counted, e.g. `HTTP 503 ×12`. */
  statuses: string;
}

/** Above this share of failing answers the service is not one to fit (nor to hedge): the probe refuses. */
export const MAX_ERROR_SHARE = 0.5;

/**
 * The failures of a phase, or null when every answer was 2xx. `floorMs`: the network floor's median, taken
 * off each failure as it is off each service time.
 */
export function fitErrors(
  phase: {
    latencies: readonly number[];
    failedLatencies: readonly number[];
    reasons: Record<string, number>;
  },
  floorMs: number,
): ErrorFit | null {
  const failed = phase.failedLatencies.length;
  if (failed === 0) return null;
  const answers = phase.latencies.length + failed;
  const statuses = Object.entries(phase.reasons)
    .filter(([r]) => r.startsWith('HTTP '))
    .map(([r, k]) => `${r} ×${k}`)
    .join(', ');
  return {
    errorProb: round(failed / answers, 5),
    errorMs: round(Math.max(0, percentileOf([...phase.failedLatencies], 50) - floorMs), 3),
    failed,
    answers,
    statuses,
  };
}

/** The failures as the model's fields (none without failures, so such a model.json is as before). */
export function errorModelFields(fit: ErrorFit | null): { errorProb?: number; errorMs?: number } {
  return fit === null || !(fit.errorProb > 0) ? {} : { errorProb: fit.errorProb, errorMs: fit.errorMs };
}

function round(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}
