// The probe's three kinds of traffic: TCP connects (the network floor), one request at a time (service
// times with no queueing caused by the probe itself), and an open-loop Poisson step at a fixed rate.
// Every phase is bounded in requests and in time and stops at once when its AbortSignal fires.

import { connect } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { percentileOf } from '../contract/index.ts';
import { createScheduler } from '../loadgen/index.ts';
import { ArrivalSchedule } from '../model/index.ts';
import { SystemClock } from '../runtime/index.ts';
import type { Answer, Requester } from './requester.ts';
import { TIMEOUT_REASONS } from './requester.ts';

/** Connect round trips to host:port (each socket closed at once, nothing sent), ms; rejects on failure. */
export async function connectRtts(
  host: string,
  port: number,
  count: number,
  timeoutMs: number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      await new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        const socket = connect({ host, port });
        socket.setTimeout(timeoutMs, () => {
          socket.destroy();
          reject(new Error(`no connection within ${timeoutMs} ms`));
        });
        socket.once('error', (err) => {
          socket.destroy();
          reject(err);
        });
        socket.once('connect', () => {
          const ms = performance.now() - t0;
          socket.destroy();
          resolve(ms);
        });
      }),
    );
  }
  return out;
}

/** Period of the event-loop delay monitor during a step, ms. */
const LOOP_PERIOD_MS = 2;

/** Answers of a phase: latencies of the 2xx ones, failures by reason. */
interface PhaseAnswers {
  latencies: number[];
  /** Latencies of the answers that failed with an HTTP status (the service's own errors, probe/fit-errors.ts). */
  failedLatencies: number[];
  failed: number;
  timeouts: number;
  reasons: Record<string, number>;
  elapsedMs: number;
}

function tally(into: PhaseAnswers, a: Answer): void {
  if (a.ok) {
    into.latencies.push(a.latencyMs);
    return;
  }
  into.failed++;
  // A status is the service answering (fast or slow); a timeout or a network error is no answer at all.
  if (a.reason.startsWith('HTTP ')) into.failedLatencies.push(a.latencyMs);
  if (TIMEOUT_REASONS.has(a.reason)) into.timeouts++;
  into.reasons[a.reason] = (into.reasons[a.reason] ?? 0) + 1;
}

/** Sends one request and waits for it; null when `signal` fired first (the request is then cancelled). */
function once(req: Requester, signal: AbortSignal): Promise<Answer | null> {
  return new Promise((resolve) => {
    const onAbort = () => {
      cancel();
      resolve(null);
    };
    const cancel = req.send((a) => {
      signal.removeEventListener('abort', onAbort);
      resolve(a);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One request at a time, up to `maxRequests` or `maxMs`: the probe never queues behind itself, so each
 * latency is one service time plus the network. Stops early once `stopAfterFailures` failed in a row.
 * With `floor`, every `every`-th request goes to the floor URL instead; its latency counts whatever
 * the status (a 404 is as good a round trip as any), network errors excepted.
 */
export async function sequential(
  req: Requester,
  o: {
    maxRequests: number;
    maxMs: number;
    signal: AbortSignal;
    stopAfterFailures: number;
    floor?: { req: Requester; every: number };
  },
): Promise<PhaseAnswers & { floorLatencies: number[] }> {
  const r = {
    latencies: [],
    failedLatencies: [],
    failed: 0,
    timeouts: 0,
    reasons: {},
    elapsedMs: 0,
    floorLatencies: [] as number[],
  };
  const t0 = performance.now();
  let run = 0;
  for (let i = 0; i < o.maxRequests && !o.signal.aborted; i++) {
    if (performance.now() - t0 >= o.maxMs) break;
    if (o.floor && i % o.floor.every === 0) {
      const f = await once(o.floor.req, o.signal);
      if (f === null) break;
      if (f.ok || f.reason.startsWith('HTTP ')) r.floorLatencies.push(f.latencyMs);
    }
    const a = await once(req, o.signal);
    if (a === null) break;
    tally(r, a);
    run = a.ok ? 0 : run + 1;
    if (run >= o.stopAfterFailures) break;
  }
  r.elapsedMs = performance.now() - t0;
  return r;
}

/** One open-loop step's figures. */
export interface StepAnswers extends PhaseAnswers {
  rate: number;
  sent: number;
  /** Send lag (actual − intended send time), the largest, ms. */
  maxSendLagMs: number;
  /** Send lag p99 over the step's sends, ms. */
  sendLagP99Ms: number;
  /** How late the probe's own event loop ran a timer, p99 over the step, ms (beyond the timer's period). */
  loopDelayP99Ms: number;
  maxInflight: number;
  /** Why sending stopped before the step's end, if it did. */
  stopped: string | null;
}

/**
 * Poisson arrivals at `rate` per second for `durationMs`, open loop: a slow answer never delays the next
 * send. Sending stops early when more than `maxInflight` requests are outstanding (the queue is growing
 * past any use) or on abort; answers are awaited up to `timeoutMs` after the last send, then cancelled.
 */
export async function openLoopStep(
  req: Requester,
  o: {
    rate: number;
    durationMs: number;
    seed: number;
    timeoutMs: number;
    maxInflight: number;
    signal: AbortSignal;
  },
): Promise<StepAnswers> {
  const r: StepAnswers = {
    latencies: [],
    failedLatencies: [],
    failed: 0,
    timeouts: 0,
    reasons: {},
    elapsedMs: 0,
    rate: o.rate,
    sent: 0,
    maxSendLagMs: 0,
    sendLagP99Ms: 0,
    loopDelayP99Ms: 0,
    maxInflight: 0,
    stopped: null,
  };
  const lags: number[] = [];
  // The probe's own health (probe/noise.ts): a timer every LOOP_PERIOD_MS, its lateness recorded.
  const loop = monitorEventLoopDelay({ resolution: LOOP_PERIOD_MS });
  loop.enable();
  const calls = Math.max(1, Math.ceil(((o.rate * o.durationMs) / 1000) * 2 + 20));
  const schedule = new ArrivalSchedule(o.seed, o.rate / 1000, calls);
  const intended = new Float64Array(calls);
  let count = 0;
  while (count < calls && schedule.at(count) < o.durationMs) intended[count] = schedule.at(count++);
  const clock = new SystemClock();
  const cancels = new Set<() => void>();
  const t0 = clock.now() + 2;
  try {
    await new Promise<void>((resolve) => {
      let sendingDone = false;
      let graceTimer: NodeJS.Timeout | undefined;
      const finish = () => {
        o.signal.removeEventListener('abort', onAbort);
        clearTimeout(graceTimer);
        for (const c of cancels) c();
        cancels.clear();
        resolve();
      };
      const maybeEnd = () => {
        if (sendingDone && cancels.size === 0) finish();
      };
      const scheduler = createScheduler({
        clock,
        intendedMs: intended.subarray(0, count),
        t0,
        maxMs: o.durationMs + 1_000,
        send: (i, nowMs) => {
          const lag = nowMs - t0 - intended[i];
          lags.push(lag);
          r.maxSendLagMs = Math.max(r.maxSendLagMs, lag);
          r.sent++;
          let cancel: (() => void) | null = null;
          let ended = false;
          cancel = req.send((a) => {
            ended = true;
            if (cancel) cancels.delete(cancel);
            tally(r, a);
            maybeEnd();
          });
          if (!ended) cancels.add(cancel);
          r.maxInflight = Math.max(r.maxInflight, cancels.size);
          if (cancels.size > o.maxInflight && r.stopped === null) {
            r.stopped = `more than ${o.maxInflight} requests in flight`;
            scheduler.stop();
          }
        },
        onEnd: () => {
          sendingDone = true;
          // Answers still missing this long after the last send count as timeouts.
          graceTimer = setTimeout(() => {
            const missing = cancels.size;
            r.failed += missing;
            r.timeouts += missing;
            if (missing > 0) r.reasons.timeout = (r.reasons.timeout ?? 0) + missing;
            finish();
          }, o.timeoutMs + 50);
          maybeEnd();
        },
      });
      const onAbort = () => {
        r.stopped = 'interrupted';
        scheduler.stop();
        finish();
      };
      if (o.signal.aborted) {
        onAbort();
        return;
      }
      o.signal.addEventListener('abort', onAbort, { once: true });
      scheduler.start();
    });
  } finally {
    loop.disable();
    await clock.close();
  }
  r.elapsedMs = clock.now() - t0;
  r.sendLagP99Ms = lags.length > 0 ? percentileOf(lags, 99) : 0;
  // The monitor records the whole interval between two runs of its timer (ns): lateness is what exceeds the period.
  r.loopDelayP99Ms = loop.count > 0 ? Math.max(0, loop.percentile(99) / 1e6 - LOOP_PERIOD_MS) : 0;
  return r;
}
