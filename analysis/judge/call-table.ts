// One side of a point call by call, in the shape the verdict pairs: every measured call with its outcome,
// latency, attempts and worker time. The real side's latency is the harness-free one (attribution's
// `withoutHarness`), its worker time the model's service draw of each served attempt: what the model
// predicts, with what the wall clock added taken out call by call.

import { OUTCOME_CODE, type SimCalls } from '../../contract/index.ts';
import type { RawAttempts, RawCalls } from '../read/raw-files.ts';
import type { Attribution } from './attribution.ts';

/** The measured calls of one side, column by column (model ms). */
export interface CallTable {
  n: number;
  call: Float64Array;
  /** 1 when the call succeeded (only those have a latency in the percentiles). */
  ok: Uint8Array;
  latencyMs: Float64Array;
  attempts: ArrayLike<number>;
  rejected: Uint8Array;
  /** Worker time of the call's attempts; null when the side has no record of it. */
  busyMs: Float64Array | null;
  /** Ok calls whose latency could not be split into its parts (no server record of the winner): kept whole. */
  unsplit: number;
}

/** The simulated side: the simulator's per-call records as they are (contract/sim-calls.ts). */
export function simCallTable(c: SimCalls): CallTable {
  const ok = new Uint8Array(c.n);
  const rejected = new Uint8Array(c.n);
  for (let i = 0; i < c.n; i++) {
    ok[i] = c.outcome[i] === OUTCOME_CODE.ok ? 1 : 0;
    rejected[i] = c.outcome[i] === OUTCOME_CODE.rejected ? 1 : 0;
  }
  return {
    n: c.n,
    call: c.call,
    ok,
    latencyMs: c.latencyMs,
    attempts: c.attempts,
    rejected,
    busyMs: c.busyMs,
    unsplit: 0,
  };
}

/**
 * The measured side with the harness taken out: each ok call's latency less its harness parts where the
 * attribution could split it (`harnessFree` false: the latency as measured, e.g. against sim+net, whose
 * transport stands for the harness); worker time = the service draw of each served attempt, and the time
 * in service of one cancelled there.
 */
export function realCallTable(
  calls: RawCalls,
  attempts: RawAttempts | null,
  attribution: Attribution | null,
  harnessFree: boolean,
): CallTable {
  const n = calls.n;
  const latencyMs = Float64Array.from(calls.latencyMs);
  const ok = new Uint8Array(n);
  const rejected = new Uint8Array(n);
  const row = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    ok[i] = calls.outcome[i] === OUTCOME_CODE.ok ? 1 : 0;
    rejected[i] = calls.outcome[i] === OUTCOME_CODE.rejected ? 1 : 0;
    row.set(calls.call[i], i);
  }
  let unsplit = 0;
  if (harnessFree) {
    const split = new Uint8Array(n);
    if (attribution !== null) {
      for (let k = 0; k < attribution.n; k++) {
        const i = row.get(attribution.call[k]);
        if (i === undefined) continue;
        latencyMs[i] = attribution.withoutHarness[k];
        split[i] = 1;
      }
    }
    for (let i = 0; i < n; i++) if (ok[i] === 1 && split[i] === 0) unsplit++;
  }
  return {
    n,
    call: calls.call,
    ok,
    latencyMs,
    attempts: calls.attempts,
    rejected,
    busyMs: attempts === null ? null : busyOfCalls(attempts, row, n),
    unsplit,
  };
}

// Worker time per measured call: what the model holds a worker for (the service draw of a served attempt,
// or until a cancel reached one in service), not the hold the target's timers achieved (overshoot is harness).
function busyOfCalls(a: RawAttempts, row: ReadonlyMap<number, number>, n: number): Float64Array {
  const busy = new Float64Array(n);
  for (let j = 0; j < a.n; j++) {
    const i = row.get(a.call[j]);
    if (i === undefined || !Number.isFinite(a.startMs[j]) || !Number.isFinite(a.endMs[j])) continue;
    // A failed attempt (the model's errorMs) holds its worker for its draw as a served one does.
    const drawn = a.ended[j] === 'served' || a.ended[j] === 'failed';
    busy[i] += drawn ? a.serviceMs[j] : Math.max(0, a.endMs[j] - a.startMs[j]);
  }
  return busy;
}

/** The ok calls' latencies as a sample (index and value), for percentiles. */
export function okLatencies(t: CallTable): { call: Float64Array; latencyMs: Float64Array } {
  let m = 0;
  for (let i = 0; i < t.n; i++) m += t.ok[i];
  const call = new Float64Array(m);
  const latencyMs = new Float64Array(m);
  for (let i = 0, k = 0; i < t.n; i++) {
    if (t.ok[i] !== 1) continue;
    call[k] = t.call[i];
    latencyMs[k++] = t.latencyMs[i];
  }
  return { call, latencyMs };
}
