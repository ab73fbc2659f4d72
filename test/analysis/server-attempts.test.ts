// learnAttemptsFromServer: a grpc-js point's attempts per call come from the target's records (the highest
// attempt number recorded for the call), never lowered below what the generator knew.
import { describe, expect, it } from 'vitest';
import type { RawAttempts, RawCalls } from '../../analysis/read/raw-files.ts';
import { learnAttemptsFromServer } from '../../analysis/read/server-attempts.ts';

function calls(rows: [call: number, attempts: number][]): RawCalls {
  const n = rows.length;
  const f = (i: number) => Float64Array.from(rows.map((r) => r[i]!));
  return {
    n,
    call: f(0),
    intendedMs: new Float64Array(n),
    sendLagMs: new Float64Array(n),
    latencyMs: new Float64Array(n),
    outcome: new Uint8Array(n),
    attempts: f(1),
    skipped: new Float64Array(n),
    winner: new Float64Array(n).fill(1),
    winnerWrittenMs: new Float64Array(n),
  };
}

function attempts(rows: [call: number, attempt: number][]): RawAttempts {
  const n = rows.length;
  return {
    n,
    call: Float64Array.from(rows.map((r) => r[0])),
    attempt: Float64Array.from(rows.map((r) => r[1])),
    enqueueMs: new Float64Array(n),
    startMs: new Float64Array(n),
    endMs: new Float64Array(n),
    ended: new Array<string>(n).fill('served'),
    worker: new Float64Array(n),
    serviceMs: new Float64Array(n),
    respondedMs: new Float64Array(n),
  } as RawAttempts;
}

describe('learnAttemptsFromServer', () => {
  it('takes the highest attempt the server recorded per call', () => {
    const c = calls([
      [10, 1],
      [11, 1],
      [12, 2],
      [13, 1],
    ]);
    // Call 10: a hedge the generator never saw; 11: none; 12: attempt 2 recorded out of order; 13: the server
    // has no record (warm-up filtered, or lost): the generator's count stays.
    learnAttemptsFromServer(
      c,
      attempts([
        [10, 1],
        [10, 2],
        [11, 1],
        [12, 2],
        [12, 1],
        [99, 3],
      ]),
    );
    expect([...c.attempts]).toEqual([2, 1, 2, 1]);
  });
});
