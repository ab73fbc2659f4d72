// What a finished point reports (the `summary` JSON in the status hash and the CLI's stdout line), and
// the CSV line of one measured call.

import type { CallOutcome } from '../contract/index.ts';
import type { PointClock } from './point-clock.ts';
import type { SelfCheck } from './self-check.ts';

/** The summary of one point as the load generator ran it. */
export interface LoadResult {
  /** done = the point ran (it may still be invalid or collapsed); failed = it could not be trusted at all. */
  state: 'done' | 'failed';
  /** Set when state = failed: interrupted, records dropped, Redis unusable … */
  error: string | null;
  /** With several load generators per point: this one's index and their number (absent with one). */
  client?: number;
  clients?: number;
  target: string;
  config: string;
  load: number;
  seed: number;
  calls: number;
  warmupCalls: number;
  /** Calls sent (warm-up included) and completed (with any outcome). */
  sent: number;
  completed: number;
  /** Calls still in flight when the point stopped (collapse, interruption); never recorded. */
  abandoned: number;
  /** Measured (post-warm-up) completed calls by outcome. */
  measured: { ok: number; rejected: number; failed: number; hedged: number; skipped: number };
  /** Attempts started but cancelled before their request was written (the server never saw them). */
  attemptsUnwritten: number;
  /** Why attempts failed, counted (e.g. `HTTP 503`, `ECONNREFUSED`, `UND_ERR_SOCKET`). */
  attemptFailures: Record<string, number>;
  /** Latency from the intended start of measured ok calls, ms. */
  latency: { p50Ms: number | null; p99Ms: number | null; maxMs: number | null };
  /** Client latency − server-reported time of measured calls won by their first attempt (serverTiming only). */
  overhead: { n: number; p50Ms: number | null; p99Ms: number | null } | null;
  durationMs: number;
  /** CPU this process used from t0 to the end, in cores (1 = one core busy all the time; polling costs ~1). */
  cpuCores: number;
  /**
   * Scheduler lag of measured calls (when the scheduler handed the call to the pipeline − intended), ms.
   * Send lag (in selfCheck) is measured at the write; the difference is time spent getting a connection.
   */
  dispatchLag: { p50Ms: number; p99Ms: number; maxMs: number };
  selfCheck: SelfCheck;
  inflight: { max: number; cap: number; timeline: Array<[number, number]> };
  collapsed: boolean;
  collapseReason: string | null;
  recorder: { written: number; dropped: number; failedBatches: number } | null;
  /** targetClock − generatorClock at the start and end of the point (point-clock.ts); null with clockSamples 0. */
  clock: PointClock | null;
  valid: boolean;
  reasons: string[];
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
