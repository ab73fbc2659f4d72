// What a finished point reports (the `summary` JSON in the status hash and the CLI's stdout line), and
// the CSV line of one measured call and where it goes.

import type { CallOutcome, LoadSummary } from '../contract/index.ts';
import type { SelfCheck } from './self-check.ts';

/**
 * The summary of one point as the load generator ran it (contract/point-status.ts declares it); in memory
 * its self-check's figures are numbers (NaN when there were no samples), which JSON writes as null.
 */
export type LoadResult = LoadSummary & { selfCheck: SelfCheck };

/** Where a measured call's CSV line goes (the stream recorder), if anywhere. */
export interface LineSink {
  add(line: string): void;
}

/** One measured call as the CSV line of the calls stream (CALL_FIELDS order), times with µs precision. */
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
): string {
  const written = Number.isNaN(winnerWrittenMs) ? '' : winnerWrittenMs.toFixed(3);
  return `${call},${intendedMs.toFixed(3)},${sendLagMs.toFixed(3)},${latencyMs.toFixed(3)},${outcome},${attempts},${skipped},${winner},${written}`;
}
