// How busy each replica of a real point was, from the server's attempt records: busy worker time over
// workers × the measured span, the same utilisation points.csv gives for the whole service, per replica.
// Each replica times its attempts on its own clock, so only durations (end − start) are compared across them.

import { SLOW_REPLICA } from '../../model/index.ts';
import { RawFileError } from '../errors.ts';
import type { RawAttempts } from './raw-files.ts';

/** One replica's share of a point. */
export interface ReplicaUse {
  replica: number;
  /** Attempts of measured calls it received. */
  attempts: number;
  /** Σ (end − start) of those it started, ms. */
  busyMs: number;
  /** busyMs / (workers × span); null without a span. */
  utilization: number | null;
  /** Mean time a worker held one of its attempts, ms; null when it started none. */
  meanHoldMs: number | null;
  /** It is the degraded replica of a point with slowReplica > 1 (its service times × that factor). */
  slow: boolean;
}

/**
 * Σ (end − start) of every started attempt of a measured call (ignore-mode losers included), ms, per
 * replica (index 0 holds everything when the file has no replica column), with the count of attempts and
 * of started ones.
 */
export function busyByReplica(
  path: string,
  a: RawAttempts,
  measured: ReadonlySet<number>,
  replicas: number,
): { busyMs: Float64Array; attempts: Float64Array; started: Float64Array } {
  const R = Math.max(1, replicas);
  const out = { busyMs: new Float64Array(R), attempts: new Float64Array(R), started: new Float64Array(R) };
  for (let i = 0; i < a.n; i++) {
    if (!measured.has(a.call[i])) continue;
    const r = a.replica ? a.replica[i] : 0;
    if (!Number.isInteger(r) || r < 0 || r >= R) {
      throw new RawFileError(
        `${path} line ${i + 2}: replica ${r} is not one of the point's ${R} replicas (0..${R - 1}); the file does not belong to this point`,
      );
    }
    out.attempts[r]++;
    const s = a.startMs[i];
    const e = a.endMs[i];
    // Never started (cancelled while queued) or never ended (the point was stopped): no known service time.
    if (!Number.isFinite(s) || !Number.isFinite(e)) continue;
    if (e < s) {
      throw new RawFileError(
        `${path} line ${i + 2}: attempt started at ${s} ms has end ${a.endMs[i]}; expected end ≥ start`,
      );
    }
    out.busyMs[r] += e - s;
    out.started[r]++;
  }
  return out;
}

/** Each replica's use over the measured span (`spanMs` on the generator's clock); `slowFactor` > 1 marks replica 0. */
export function replicaUse(
  busy: ReturnType<typeof busyByReplica>,
  workers: number,
  spanMs: number,
  slowFactor: number,
): ReplicaUse[] {
  return Array.from(busy.busyMs, (busyMs, replica) => ({
    replica,
    attempts: busy.attempts[replica],
    busyMs,
    utilization: spanMs > 0 ? busyMs / (workers * spanMs) : null,
    meanHoldMs: busy.started[replica] > 0 ? busyMs / busy.started[replica] : null,
    slow: slowFactor > 1 && replica === SLOW_REPLICA,
  }));
}
