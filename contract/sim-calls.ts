// A point's simulated calls, one line per measured call: what the simulator says each call of the real
// point should have done (same arrivals, same draws), so the verdict can pair sim and real call by call.
// The analysis caches them in the run folder (sim-calls/<slug>.csv, model ms) and recomputes a missing file.

import { join } from 'node:path';
import type { CallOutcome } from './records.ts';

/** Columns of sim-calls/<slug>.csv, in order. */
export const SIM_CALL_FIELDS = [
  'call',
  'latency_ms',
  'outcome',
  'attempts',
  'skipped',
  'winner',
  'busy_ms',
] as const;

/** A call's outcome as a code in a column of calls (simulated or measured): its index here. */
export const CALL_OUTCOMES: readonly CallOutcome[] = ['ok', 'rejected', 'failed'];

/** Each outcome's code (CALL_OUTCOMES read backwards). */
export const OUTCOME_CODE: Readonly<Record<CallOutcome, number>> = Object.freeze({
  ok: CALL_OUTCOMES.indexOf('ok'),
  rejected: CALL_OUTCOMES.indexOf('rejected'),
  failed: CALL_OUTCOMES.indexOf('failed'),
});

/** The measured calls of a simulated point, column by column, in model ms. */
export interface SimCalls {
  n: number;
  call: Float64Array;
  /** Intended start → the call's end (first valid response, or final error). */
  latencyMs: Float64Array;
  /** Index into CALL_OUTCOMES: 0 ok, 1 rejected, 2 failed. */
  outcome: Uint8Array;
  attempts: Uint8Array;
  skipped: Uint8Array;
  winner: Uint8Array;
  /** Worker time of the call's attempts: served ones whole, cancelled ones until they left a worker. */
  busyMs: Float64Array;
}

/** Empty columns for `n` calls. */
export function emptySimCalls(n: number): SimCalls {
  return {
    n,
    call: new Float64Array(n),
    latencyMs: new Float64Array(n),
    outcome: new Uint8Array(n),
    attempts: new Uint8Array(n),
    skipped: new Uint8Array(n),
    winner: new Uint8Array(n),
    busyMs: new Float64Array(n),
  };
}

/** The file of a point's simulated calls in a run folder. */
export function simCallsPath(runDir: string, slug: string): string {
  return join(runDir, SIM_CALLS_DIR, `${slug}.csv`);
}

/** The folder of the simulated calls inside a run folder. */
export const SIM_CALLS_DIR = 'sim-calls';

/** The whole file: header, then one line per call (times with 0.1 µs precision; same calls, same bytes). */
export function formatSimCallsCsv(c: SimCalls): string {
  const lines = [SIM_CALL_FIELDS.join(',')];
  for (let i = 0; i < c.n; i++) {
    lines.push(
      `${c.call[i]},${c.latencyMs[i].toFixed(4)},${CALL_OUTCOMES[c.outcome[i]]},${c.attempts[i]},${c.skipped[i]},${c.winner[i]},${c.busyMs[i].toFixed(4)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
