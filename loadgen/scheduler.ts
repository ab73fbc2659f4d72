// The precise open-loop scheduler: sends call i at its intended time whatever the server is doing.
// It waits on the injected Clock; with runtime's SystemClock that is a coarse setTimeout while the next
// call is far away and a setImmediate poll (I/O runs between polls) for the last stretch, never early —
// plain Node timers fire early (libuv's cached loop time) and late under load (bench/RESULTS.md, "Timers
// in one process, per waker").
// On a ManualClock the same code runs deterministically, which is how the tests pin its behaviour.

import type { Clock, TimerHandle } from '../library/index.ts';

/** What the scheduler needs; times are ms on `clock.now()`'s origin. */
interface SchedulerOptions {
  clock: Clock;
  /** Intended start of call i, ms from `t0`, ascending. Its length is the number of calls. */
  intendedMs: ArrayLike<number>;
  /** Origin of `intendedMs` on `clock.now()`. */
  t0: number;
  /**
   * Send only calls first, first + step, first + 2·step, … (default 0 and 1: every call): one of `step`
   * load generators sharing the schedule.
   */
  first?: number;
  step?: number;
  /** Called once per call, in index order, as soon as its intended time has come; `nowMs` is when. */
  send: (call: number, nowMs: number) => void;
  /** Stop sending once `now − t0` exceeds this (the point's wall-time bound), ms. */
  maxMs: number;
  /** Called once when sending ends. */
  onEnd: (reason: SchedulerEnd) => void;
}

/** Why sending ended: every call sent, stopped from outside, or out of wall time. */
export type SchedulerEnd = 'done' | 'stopped' | 'time';

/** A running schedule. */
export interface Scheduler {
  start(): void;
  /** Sends nothing more; `onEnd('stopped')` follows at once unless sending had already ended. */
  stop(): void;
  /** Calls sent so far. */
  readonly sent: number;
  /** Index of the next call it would send (≥ the number of calls once every call was sent). */
  readonly next: number;
}

// A call counts as due this close to its time: `t0 + x − t0` can round one ulp below x, and a clock that
// does not move by itself (ManualClock) would then re-arm a zero-length timer forever. 1 ps is nothing.
const DUE_SLACK_MS = 1e-9;

/** Creates a scheduler over a fixed list of intended times. */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, intendedMs, t0, send, maxMs, onEnd } = options;
  const calls = intendedMs.length;
  const step = options.step ?? 1;
  let next = options.first ?? 0;
  let sent = 0;
  let ended = false;
  let timer: TimerHandle | undefined;

  const end = (reason: SchedulerEnd): void => {
    if (ended) return;
    ended = true;
    timer?.cancel();
    timer = undefined;
    onEnd(reason);
  };

  const tick = (): void => {
    timer = undefined;
    if (ended) return;
    let t = clock.now() - t0;
    // Send every call already due, re-reading the clock after each, so a burst after a stall (GC, a
    // busy event loop) still sends everything that came due meanwhile: arrivals never wait for the server.
    while (next < calls && intendedMs[next] <= t + DUE_SLACK_MS) {
      if (t > maxMs) {
        end('time');
        return;
      }
      const call = next;
      next += step;
      sent++;
      send(call, t + t0);
      if (ended) return;
      t = clock.now() - t0;
    }
    if (next >= calls) {
      end('done');
      return;
    }
    if (t > maxMs) {
      end('time');
      return;
    }
    timer = clock.setTimer(tick, Math.min(intendedMs[next], maxMs + 1) - t);
  };

  return {
    start() {
      tick();
    },
    stop() {
      end('stopped');
    },
    get sent() {
      return sent;
    },
    get next() {
      return next;
    },
  };
}
