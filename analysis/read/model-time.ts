// A dilated point's raw files read in model time (docs/time-scale.md): raw/ keeps the wall clock's milliseconds,
// and every figure the analysis derives from them — rows, attribution, self-checks, charts — is in the
// model's, wall ÷ k. Each reader of raw files passes what it read through here once, before any use.

import { sendLagReason } from '../../contract/index.ts';
import { modelMs } from '../../model/index.ts';
import type { PointStatus, RawAttempts, RawCalls } from './raw-files.ts';

/** The calls' times in model ms (in place; returns `c`). */
export function callsInModelTime(c: RawCalls, k: number): RawCalls {
  if (k !== 1) for (const xs of [c.intendedMs, c.sendLagMs, c.latencyMs, c.winnerWrittenMs]) scale(xs, k);
  return c;
}

/** The attempts' times in model ms (in place; returns `a`). */
export function attemptsInModelTime(a: RawAttempts, k: number): RawAttempts {
  if (k !== 1) for (const xs of [a.enqueueMs, a.startMs, a.endMs, a.serviceMs, a.respondedMs]) scale(xs, k);
  return a;
}

/**
 * A copy of a status with every time the analysis reads in model ms: send lag, the in-flight samples' times,
 * the clock exchange, the target's hold and response-delay percentiles — of the point and of each client.
 */
export function statusInModelTime(s: PointStatus | null, k: number): PointStatus | null {
  if (s === null || k === 1) return s;
  const out = structuredClone(s) as Record<string, unknown> & PointStatus;
  if (out.summary) summaryInModelTime(out.summary as Obj, k);
  if (Array.isArray(out.clients))
    for (const c of out.clients as Obj[]) if (isObj(c.summary)) summaryInModelTime(c.summary, k);
  if (typeof out.send_lag_p99_ms === 'number') out.send_lag_p99_ms = modelMs(out.send_lag_p99_ms, k);
  else if (typeof out.send_lag_p99_ms === 'string' && out.send_lag_p99_ms !== '')
    out.send_lag_p99_ms = modelMs(Number(out.send_lag_p99_ms), k);
  const t = out.target_check as Obj | undefined;
  if (isObj(t)) for (const f of ['holdErrorMs', 'responseDelayMs']) numbersIn(t[f], k);
  return out;
}

type Obj = Record<string, unknown>;

function summaryInModelTime(s: Obj, k: number): void {
  if (isObj(s.selfCheck)) sendLagInModelTime(s, s.selfCheck, k);
  if (isObj(s.inflight) && Array.isArray(s.inflight.timeline))
    for (const pair of s.inflight.timeline) pair[0] = modelMs(pair[0], k);
  const c = s.clock;
  if (isObj(c)) {
    for (const end of [c.start, c.end]) {
      if (!isObj(end)) continue;
      for (const f of ['offsetMs', 'uncertaintyMs'])
        if (typeof end[f] === 'number') end[f] = modelMs(end[f] as number, k);
    }
    if (typeof c.t0AbsMs === 'number') c.t0AbsMs = modelMs(c.t0AbsMs, k);
  }
}

// The send lag's figures in model ms, and its reason (the summary's and the self-check's) written from them.
function sendLagInModelTime(s: Obj, check: Obj, k: number): void {
  const lag = check.sendLag;
  const reason = () =>
    isObj(lag) && typeof lag.p99Ms === 'number' && typeof lag.thresholdMs === 'number'
      ? sendLagReason(lag.p99Ms, lag.thresholdMs)
      : null;
  const wall = reason();
  numbersIn(lag, k);
  const model = reason();
  if (wall === null || model === null) return;
  for (const o of [s, check])
    if (Array.isArray(o.reasons)) o.reasons = o.reasons.map((r) => (r === wall ? model : r));
}

// Every number of a flat object of figures (p50, p99, max, mean…), divided by k.
function numbersIn(o: unknown, k: number): void {
  if (!isObj(o)) return;
  for (const [f, v] of Object.entries(o))
    if (typeof v === 'number' && !/count|early|^n$/i.test(f)) o[f] = modelMs(v, k);
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function scale(xs: Float64Array, k: number): void {
  for (let i = 0; i < xs.length; i++) xs[i] = modelMs(xs[i], k);
}
