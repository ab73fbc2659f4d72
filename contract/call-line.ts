// The writer of one calls record: a CallRecord as its CSV line (CALL_FIELDS order), as the load generator
// puts it in the calls stream and the drain copies it, unchanged, into raw/<slug>.calls.csv.

import type { CallOutcome } from './records.ts';

/**
 * One measured call as the CSV line of the calls stream (CALL_FIELDS order), times with µs precision.
 * `hedgedOnError` is given only when the point counts hedges started on error: it is then the last cell
 * (CALL_HEDGED_ON_ERROR_FIELD).
 */
export function callLine(
  call: number,
  intendedMs: number,
  sendLagMs: number,
  latencyMs: number,
  outcome: CallOutcome,
  attempts: number,
  skipped: number,
  winner: number,
  winnerWrittenMs: number,
  hedgedOnError?: number,
): string {
  // Positional arguments, not a CallRecord: this runs once per call on the generator's hot path.
  const written = Number.isNaN(winnerWrittenMs) ? '' : winnerWrittenMs.toFixed(3);
  const line = `${call},${intendedMs.toFixed(3)},${sendLagMs.toFixed(3)},${latencyMs.toFixed(3)},${outcome},${attempts},${skipped},${winner},${written}`;
  return hedgedOnError === undefined ? line : `${line},${hedgedOnError}`;
}
