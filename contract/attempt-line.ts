// The writer of one attempts record: an AttemptRecord as its CSV line (attemptFields order), as the target
// server puts it in the attempts stream and the drain copies it, unchanged, into raw/<slug>.attempts.csv.

import { ATTEMPT_FIELDS, type AttemptEnd, type PeerCancelFate } from './records.ts';

// Every time of a line is written with µs: what an analysis can tell apart in a record.
const DECIMALS = 3;
/** The resolution of an attempts record's times, ms (of the server's clock: wall ms on a dilated point). */
export const ATTEMPT_TIME_RESOLUTION_MS = 10 ** -DECIMALS;

/**
 * One attempts-stream line in ATTEMPT_FIELDS order (times in ms, to the µs: ATTEMPT_TIME_RESOLUTION_MS; start
 * and responded empty when the attempt never started or got no response). `replica` is given only when the point has several
 * replicas: it is then the last cell (ATTEMPT_REPLICA_FIELD), or followed by the tied cells (tiedAttemptCells)
 * when the point's copies cancel each other.
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
  replica?: number,
  tied?: string,
): string {
  // Positional arguments, not an AttemptRecord: this runs once per attempt on the server's hot path.
  const start = Number.isNaN(startMs) ? '' : startMs.toFixed(DECIMALS);
  const responded = Number.isNaN(respondedMs) ? '' : respondedMs.toFixed(DECIMALS);
  const line = `${call},${attempt},${enqueueMs.toFixed(DECIMALS)},${start},${endMs.toFixed(DECIMALS)},${ended},${worker},${serviceMs.toFixed(DECIMALS)},${responded}`;
  if (replica === undefined) return line;
  return tied === undefined ? `${line},${replica}` : `${line},${replica},${tied}`;
}

/**
 * The cells a tied point's attempt line ends in (ATTEMPT_TIED_FIELDS; `tied` of attemptLine): the epoch times
 * with µs (3 decimals; empty when NaN) and the peer cancel's fate (empty when none reached it).
 */
export function tiedAttemptCells(t: {
  sentMs: number;
  arrivedMs: number;
  fate: PeerCancelFate | undefined;
  decidedMs: number;
}): string {
  return `${epochCell(t.sentMs)},${epochCell(t.arrivedMs)},${t.fate ?? ''},${epochCell(t.decidedMs)}`;
}

function epochCell(ms: number): string {
  return Number.isNaN(ms) ? '' : ms.toFixed(DECIMALS);
}

// The line above is written by hand for speed; this guards its column order against the field list.
if (
  ATTEMPT_FIELDS.join(',') !== 'call,attempt,enqueue_ms,start_ms,end_ms,ended,worker,service_ms,responded_ms'
) {
  throw new Error('contract/attempt-line.ts: ATTEMPT_FIELDS changed; update attemptLine to match');
}
