// One attempt's record as the target writes it to the point's attempts stream: a CSV line in the contract's
// ATTEMPT_FIELDS order, written by hand because it runs once per attempt.

import { ATTEMPT_FIELDS, type AttemptEnd } from '../contract/index.ts';

/**
 * One attempts-stream line in ATTEMPT_FIELDS order (times in ms, 3 decimals; start and responded empty
 * when the attempt never started or got no response).
 */
export function attemptLine(
  call: number,
  attempt: number,
  enqueueMs: number,
  startMs: number,
  endMs: number,
  ended: AttemptEnd,
  worker: number,
  serviceMs: number,
  respondedMs: number,
): string {
  const start = Number.isNaN(startMs) ? '' : startMs.toFixed(3);
  const responded = Number.isNaN(respondedMs) ? '' : respondedMs.toFixed(3);
  return `${call},${attempt},${enqueueMs.toFixed(3)},${start},${endMs.toFixed(3)},${ended},${worker},${serviceMs.toFixed(3)},${responded}`;
}

// The line above is written by hand for speed; this guards its column order against the contract.
if (
  ATTEMPT_FIELDS.join(',') !== 'call,attempt,enqueue_ms,start_ms,end_ms,ended,worker,service_ms,responded_ms'
) {
  throw new Error('target-server/attempt-line.ts: ATTEMPT_FIELDS changed; update attemptLine to match');
}
