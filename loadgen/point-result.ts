// What a finished point reports (the `summary` JSON in the status hash and the CLI's stdout line), and how a
// finished PointRun becomes it: the self-check over the measured sends, percentiles, collapse evidence and
// the recorder's counters.

import { type LoadSummary, percentileOfSorted } from '../contract/index.ts';
import type { ResolvedOptions } from './loadgen-options.ts';
import type { PointClock } from './point-clock.ts';
import type { PointRun } from './point-run.ts';
import { type SelfCheck, selfCheck } from './self-check.ts';

/**
 * The summary of one point as the load generator ran it (contract/point-status.ts declares it); in memory
 * its self-check's figures are numbers (NaN when there were no samples), which JSON writes as null.
 */
export type LoadResult = LoadSummary & { selfCheck: SelfCheck };

/** Counters of the call-record stream, or null without Redis. */
export type RecorderCounters = LoadResult['recorder'];

/** The summary of a finished point; `error` set = the point failed (interrupted, records lost …). */
export function pointResult(
  run: PointRun,
  o: ResolvedOptions,
  durationMs: number,
  cpuCores: number,
  recorder: RecorderCounters,
  error: string | null,
  clock: { clock: PointClock; reasons: string[] } | null = null,
): LoadResult {
  const warm = run.warm;
  // This client's measured calls that were sent: i ≥ warm-up, i < the scheduler's next, i ≡ client (mod K).
  const K = run.clients;
  const first = warm + ((((run.client - warm) % K) + K) % K);
  const n = Math.max(0, Math.ceil((run.scheduled - first) / K));
  const sendMs = new Float64Array(n);
  const intendedMs = new Float64Array(n);
  const dispatchLag = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = first + k * K;
    sendMs[k] = run.sendTime(i);
    intendedMs[k] = run.intended[i];
    dispatchLag[k] = run.dispatchAt[i] - run.intended[i];
  }
  dispatchLag.sort();
  const check = selfCheck(sendMs, intendedMs, run.ratePerMs, {
    sendLagThresholdMs: o.sendLagThresholdMs,
    ...(K === 1 ? {} : { clients: K }),
  });
  const reasons = [...check.reasons];
  if (recorder !== null && recorder.dropped > 0) reasons.push(`${recorder.dropped} call records lost`);
  if (clock !== null) reasons.push(...clock.reasons);
  const h = run.latencyHist;
  const pct = (p: number) => (h.count > 0 ? h.percentile(p) : null);
  return {
    state: error === null ? 'done' : 'failed',
    error,
    // One of several load generators says which; the only one says nothing (its summary stays as it was).
    ...(K === 1 ? {} : { client: run.client, clients: K }),
    target: o.target,
    config: o.config.name,
    load: o.load,
    seed: o.seed,
    calls: run.calls,
    warmupCalls: warm,
    sent: run.sent,
    completed: run.completed,
    abandoned: run.abandoned,
    measured: { ...run.measured },
    attemptsUnwritten: run.transport.unwritten,
    attemptFailures: { ...run.attemptFailures },
    latency: { p50Ms: pct(50), p99Ms: pct(99), maxMs: h.count > 0 ? h.maxMs : null },
    overhead: run.overhead === null ? null : overheadSummary(run.overhead.subarray(0, run.overheadN)),
    durationMs,
    cpuCores,
    dispatchLag: {
      p50Ms: percentileOfSorted(dispatchLag, 50),
      p99Ms: percentileOfSorted(dispatchLag, 99),
      maxMs: n > 0 ? dispatchLag[n - 1] : Number.NaN,
    },
    selfCheck: check,
    inflight: { max: run.maxInflightSeen, cap: o.maxInflight, timeline: run.timeline.toArray() },
    collapsed: run.collapseReason !== null,
    collapseReason: run.collapseReason,
    recorder,
    clock: clock?.clock ?? null,
    valid: reasons.length === 0,
    reasons,
  };
}

function overheadSummary(xs: Float64Array): NonNullable<LoadResult['overhead']> {
  const sorted = Float64Array.from(xs).sort();
  const n = sorted.length;
  return {
    n,
    p50Ms: n > 0 ? percentileOfSorted(sorted, 50) : null,
    p99Ms: n > 0 ? percentileOfSorted(sorted, 99) : null,
  };
}
