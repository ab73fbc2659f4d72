// Attribution: where each millisecond of a real call went. A call's latency (intended start → winning
// response read) splits, on the load generator's timeline, into parts the harness adds (send lag, request
// transit, hold overshoot, response delay on the server, response transit) and parts the model predicts
// (waiting for the hedge, queue wait, service). The parts telescope, so they sum to the latency exactly;
// the clock offset only moves time between request and response transit.

import { clientOfCall } from '../../model/index.ts';
import type { PointStatus, RawAttempts, RawCalls } from '../read/raw-files.ts';

/** The parts of a call's latency, in timeline order. */
export const COMPONENTS = [
  'send_lag',
  'hedge_wait',
  'request_transit',
  'queue',
  'service',
  'overshoot',
  'response_delay',
  'response_transit',
] as const;
export type Component = (typeof COMPONENTS)[number];

/** The parts the harness adds (the simulator has none of them). */
export const HARNESS_COMPONENTS: readonly Component[] = [
  'send_lag',
  'request_transit',
  'overshoot',
  'response_delay',
  'response_transit',
];

/** What each part is, for the report and results/README.md. */
export const COMPONENT_TEXT: Readonly<Record<Component, string>> = {
  send_lag: 'first request written − intended start (generator)',
  hedge_wait: 'winning request written − first request written (the hedge delay, when a hedge won)',
  request_transit: 'server received − winning request written (network, HTTP parsing, server event loop)',
  queue: 'worker took the attempt − server received (the model’s queue wait)',
  service: 'the model’s service-time draw',
  overshoot: 'worker released − started − service (hold-time error)',
  response_delay: 'response written − worker released (server event loop)',
  response_transit: 'response read by the generator − response written (network, client event loop)',
};

/** The offset of the target's clock from the generator's, as the point measured it. */
interface ClockOffset {
  /** Target clock − generator clock, ms (absolute performance.now readings). */
  offsetMs: number;
  /** ± bound of offsetMs (half the best round trip, plus half the drift between start and end). */
  uncertaintyMs: number;
  /** The generator's clock at the point's t0, ms (times in calls.csv are relative to it). */
  t0AbsMs: number;
}

/** The per-call parts of one real point (ok calls whose winning attempt the server recorded). */
export interface Attribution {
  /** Calls attributed. */
  n: number;
  /** Ok calls that could not be (no server record of the winner, or no write time: an older file). */
  missing: number;
  /** Null when the point has no clock offset: request and response transit are then only known summed. */
  offset: ClockOffset | null;
  /** The index of each attributed call (the arrays below are in the same order). */
  call: Float64Array;
  latency: Float64Array;
  parts: Record<Component, Float64Array>;
  /** Request transit + response delay + response transit: what HTTP and both event loops add, any offset. */
  transit: Float64Array;
  /** Latency minus every harness part: what the call would have taken on a free harness, same queue. */
  withoutHarness: Float64Array;
}

/** The clock offset a status reports (summary.clock, written by the load generator), or null. */
export function clockOffsetOf(status: PointStatus | null): ClockOffset | null {
  const c = status?.summary?.clock;
  const s = c?.start;
  if (!c || !s) return null;
  const e = c.end ?? s;
  return {
    // Start and end bracket the point; their mean is the best single offset for the whole of it.
    offsetMs: (s.offsetMs + e.offsetMs) / 2,
    uncertaintyMs: Math.max(s.uncertaintyMs, e.uncertaintyMs) + Math.abs(e.offsetMs - s.offsetMs) / 2,
    t0AbsMs: c.t0AbsMs,
  };
}

/**
 * Server clock → each call's generator timeline (relative to its generator's t0): one shift for the
 * point, or, for a point of K load generators (status.json `clients`), client i's own for its calls i ≡ i
 * (mod K) — each generator has its own t0 and its own offset to the target. Null without an offset.
 */
export function serverToGenerator(
  status: PointStatus | null,
  offset: ClockOffset | null,
): ((call: number) => number) | null {
  if (offset === null) return null;
  const clients = Array.isArray(status?.clients) ? (status.clients as { summary?: unknown }[]) : [];
  if (clients.length > 1) {
    const shifts = clients.map((c) => {
      const o = clockOffsetOf({ summary: c.summary } as PointStatus);
      return o === null ? Number.NaN : o.offsetMs + o.t0AbsMs;
    });
    if (shifts.every(Number.isFinite)) return (call) => shifts[clientOfCall(call, shifts.length)]!;
  }
  const shift = offset.offsetMs + offset.t0AbsMs;
  return () => shift;
}

/** Splits every ok call of a point into its parts (calls.csv + attempts.csv + the status's clock). */
export function attribute(calls: RawCalls, attempts: RawAttempts, status: PointStatus | null): Attribution {
  const offset = clockOffsetOf(status);
  // Server clock → generator timeline relative to t0. Without an offset, request transit takes the whole
  // round trip and response transit is 0 (their sum is still right).
  const toGenOf = serverToGenerator(status, offset);
  const byAttempt = new Map<number, number>();
  // Attempt numbers are ≤ 10 (library limit): one integer key per (call, attempt).
  for (let j = 0; j < attempts.n; j++) byAttempt.set(attempts.call[j] * 16 + attempts.attempt[j], j);
  const idx: number[] = [];
  const rows: number[] = [];
  let okCalls = 0;
  for (let i = 0; i < calls.n; i++) {
    if (calls.outcome[i] !== 0) continue;
    okCalls++;
    const j = byAttempt.get(calls.call[i] * 16 + calls.winner[i]);
    if (j === undefined || Number.isNaN(calls.winnerWrittenMs[i]) || Number.isNaN(attempts.startMs[j]))
      continue;
    idx.push(i);
    rows.push(j);
  }
  const n = idx.length;
  const parts = Object.fromEntries(COMPONENTS.map((c) => [c, new Float64Array(n)])) as Record<
    Component,
    Float64Array
  >;
  const call = new Float64Array(n);
  const latency = new Float64Array(n);
  const transit = new Float64Array(n);
  const withoutHarness = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    const j = rows[k];
    const firstWritten = calls.intendedMs[i] + calls.sendLagMs[i];
    const written = calls.winnerWrittenMs[i];
    const read = calls.intendedMs[i] + calls.latencyMs[i];
    const enq = attempts.enqueueMs[j];
    const start = attempts.startMs[j];
    const end = attempts.endMs[j];
    const responded = Number.isNaN(attempts.respondedMs[j]) ? end : attempts.respondedMs[j];
    const service = attempts.serviceMs[j];
    // Server span of the attempt, from received to response written: one clock, no offset needed.
    const serverSpan = responded - enq;
    const roundTrip = read - written - serverSpan;
    // The offset was measured to replica 0; another replica's clock has its own origin.
    const onReplica0 = attempts.replica === undefined || attempts.replica[j] === 0;
    const reqTransit = toGenOf === null || !onReplica0 ? roundTrip : enq - toGenOf(calls.call[i]) - written;
    parts.send_lag[k] = calls.sendLagMs[i];
    parts.hedge_wait[k] = written - firstWritten;
    parts.request_transit[k] = reqTransit;
    parts.queue[k] = start - enq;
    parts.service[k] = service;
    parts.overshoot[k] = end - start - service;
    parts.response_delay[k] = responded - end;
    parts.response_transit[k] = roundTrip - reqTransit;
    call[k] = calls.call[i];
    latency[k] = calls.latencyMs[i];
    transit[k] = roundTrip + parts.response_delay[k];
    let harness = 0;
    for (const c of HARNESS_COMPONENTS) harness += parts[c][k];
    withoutHarness[k] = latency[k] - harness;
  }
  return { n, missing: okCalls - n, offset, call, latency, parts, transit, withoutHarness };
}

/**
 * Request transit + response transit of every attributed call: the round trip between the generator's socket
 * and the server's, without the server's own wait before it answers (response_delay, checked on its own).
 */
export function roundTrips(a: Attribution): Float64Array {
  const out = new Float64Array(a.n);
  for (let k = 0; k < a.n; k++) out[k] = a.parts.request_transit[k] + a.parts.response_transit[k];
  return out;
}

/** Sum of the parts of call k minus its latency, ms (0 up to rounding: the parts telescope). */
export function residualMs(a: Attribution, k: number): number {
  let sum = 0;
  for (const c of COMPONENTS) sum += a.parts[c][k];
  return sum - a.latency[k];
}
