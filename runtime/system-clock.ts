// SystemClock: the real-time Clock (performance.now) with deadline-based timers that never fire early
// and fire close to their deadline even with hundreds outstanding.
//
// Why not one setTimeout per timer: Node timers fire up to ~1 ms early (libuv's cached loop time) and late
// with many outstanding (bench/RESULTS.md, "Timers in one process, per waker").
// Here all timers live in one heap ordered by (deadline, insertion order) and only the earliest
// deadline is waited for, by one of two wakers:
//  - 'thread' (default): a worker thread sleeps in Atomics.wait until the deadline (or `leadMs` before it,
//    then the poller below finishes) and wakes the event loop with a message — sub-millisecond, no CPU
//    while waiting (runtime/thread-waker.ts);
//  - 'poll': one coarse setTimeout until `leadMs` before the deadline, then one shared setImmediate
//    poller — as precise on an idle machine, but it burns CPU while polling and, on an oversubscribed
//    machine, the scheduler punishes the spinning process (bench/RESULTS.md, "Wakers in the server, with the
//    pool on the event loop").
// Whatever wakes it, the clock is read and a timer fires only once performance.now() >= its deadline.

import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from '../library/index.ts';
import { ThreadWaker } from './thread-waker.ts';
import { type TimerEntry, TimerHeap } from './timer-heap.ts';

/** Options of SystemClock. */
export interface SystemClockOptions {
  /** How the clock waits for the earliest deadline (default: env HEDGEBENCH_TIMER, else 'thread'). */
  waker?: 'thread' | 'poll';
  /**
   * How long before the deadline the waker hands over to setImmediate polling, ms: default 2 for 'poll'
   * (its setTimeout may fire ~1 ms early or late; 0 = plain setTimeout plus the never-early check) and 0
   * for 'thread' (its alarm is already precise; a small lead such as 0.5 keeps the loop hot just before a
   * deadline, trading CPU for a shorter tail).
   */
  leadMs?: number;
  /**
   * How long one poll turn may sleep (Atomics.wait, never past the earliest deadline) before it lets I/O
   * run, ms: default 0.05 for 'poll', 0 (pure setImmediate polling) for 'thread'. Why: every setImmediate
   * turn allocates, and a bare poller turns so often that its garbage's scavenges stop the sending loop
   * often enough to make the send-lag tail. Sleeping a little per turn cuts the turns (and the CPU burnt)
   * for a little wake-up slack (bench/RESULTS.md, "Send lag inside a run, undilated: the generator's
   * priority").
   */
  pollSleepMs?: number;
  /**
   * Added to every reading of now() (and to handles' deadlines), ms; default 0. Timer durations are
   * unaffected. Why: tests inject a known offset between two processes' clocks into everything one of them
   * times (its records, its GET /clock), so the offset estimator (clock-offset.ts) can be checked against
   * the truth.
   */
  offsetMs?: number;
}

/** A TimerHandle that also tells its deadline on this clock (ms), so callers and tests can check it. */
interface SystemTimerHandle extends TimerHandle {
  readonly deadline: number;
}

/** Counters of a SystemClock, for benchmarks and for tests that prove nothing is left pending. */
interface SystemClockStats {
  /** Timers scheduled and neither fired nor cancelled. */
  pending: number;
  fired: number;
  /** setImmediate turns taken (polling, or a deadline already due when armed). */
  polls: number;
  /** Times the setTimeout or the thread woke the clock. */
  wakeups: number;
}

/** Real time (performance.now, ms) with precise, never-early timers; see the file header. */
export class SystemClock implements Clock {
  private readonly leadMs: number;
  private readonly pollSleepMs: number;
  private readonly offsetMs: number;
  // Atomics.wait needs a shared cell; nothing ever notifies it, so a wait always runs to its timeout.
  private readonly sleepCell = new Int32Array(new SharedArrayBuffer(4));
  private readonly heap = new TimerHeap();
  private seq = 0;
  private live = 0;
  private fired = 0;
  private polls = 0;
  private wakeups = 0;
  private coarse: NodeJS.Timeout | null = null;
  private coarseAt = Number.POSITIVE_INFINITY;
  private polling = false;
  private thread: ThreadWaker | null = null;

  constructor(options: SystemClockOptions = {}) {
    // HEDGEBENCH_TIMER=poll|thread flips the default in every process (e.g. a load generator), no flag needed.
    const mode = options.waker ?? (process.env.HEDGEBENCH_TIMER as 'thread' | 'poll' | undefined) ?? 'thread';
    if (mode !== 'thread' && mode !== 'poll') {
      throw new RangeError(
        `SystemClock: waker (or HEDGEBENCH_TIMER) must be 'thread' or 'poll', got ${JSON.stringify(mode)}`,
      );
    }
    const lead = options.leadMs ?? (mode === 'poll' ? 2 : 0);
    if (!Number.isFinite(lead) || lead < 0) {
      throw new RangeError(
        `SystemClock: leadMs must be a finite number >= 0, got ${lead}; the default is 2 for 'poll', 0 for 'thread'`,
      );
    }
    this.leadMs = lead;
    const sleep = options.pollSleepMs ?? (mode === 'poll' ? 0.05 : 0);
    if (!Number.isFinite(sleep) || sleep < 0 || sleep > 1) {
      throw new RangeError(
        `SystemClock: pollSleepMs must be a number in [0, 1], got ${sleep}; the default is 0.05 for 'poll', 0 for 'thread'`,
      );
    }
    this.pollSleepMs = sleep;
    const offset = options.offsetMs ?? 0;
    if (!Number.isFinite(offset)) {
      throw new RangeError(`SystemClock: offsetMs must be a finite number, got ${offset}; the default is 0`);
    }
    this.offsetMs = offset;
    // Started here, not on first use: spawning the thread takes tens of ms, which must not delay a timer.
    if (mode === 'thread') this.thread = new ThreadWaker(this.onWake);
  }

  now(): number {
    return performance.now() + this.offsetMs;
  }

  /**
   * The epoch ms (performance.timeOrigin's clock) at which now() read 0: now() + this is a time every process of
   * one machine reads alike (within a few µs), so records of several servers can be set on one clock.
   */
  get epochOriginMs(): number {
    return performance.timeOrigin - this.offsetMs;
  }

  setTimer(cb: () => void, delayMs: number): SystemTimerHandle {
    const delay = Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0;
    const entry: TimerEntry = { deadline: performance.now() + delay, seq: this.seq++, cb };
    this.heap.push(entry);
    this.live++;
    // Re-arm when this timer is now the earliest, or when cancelled timers sit in front of it.
    const top = this.heap.top!;
    if (top === entry || top.cb === null) this.arm();
    // Deadlines are kept on performance.now() inside; the handle tells them on this clock.
    return {
      deadline: entry.deadline + this.offsetMs,
      cancel: () => {
        if (entry.cb === null) return;
        entry.cb = null;
        this.live--;
        // Dead entries stay in the heap until they reach the top; compact when they dominate.
        if (this.heap.size > 64 && this.live * 4 < this.heap.size) this.heap.compact();
        if (this.live === 0) this.disarm();
      },
    };
  }

  /** Counters since construction. */
  stats(): SystemClockStats {
    return { pending: this.live, fired: this.fired, polls: this.polls, wakeups: this.wakeups };
  }

  /** Stops the waker thread (if any). Pending timers no longer fire; call when the owner shuts down. */
  async close(): Promise<void> {
    this.clearCoarse();
    const t = this.thread;
    this.thread = null;
    await t?.close();
  }

  private readonly onWake = (): void => {
    this.coarse = null;
    this.coarseAt = Number.POSITIVE_INFINITY;
    this.wakeups++;
    this.drain();
  };

  private readonly onPoll = (): void => {
    this.polling = false;
    this.polls++;
    if (this.pollSleepMs > 0) {
      const top = this.heap.firstLive();
      if (top !== undefined) {
        const wait = Math.min(top.deadline - performance.now(), this.pollSleepMs);
        if (wait > 0) Atomics.wait(this.sleepCell, 0, 0, wait);
      }
    }
    this.drain();
  };

  // Fires every live timer whose deadline has passed, in (deadline, seq) order, then re-arms.
  // Timers scheduled by callbacks get a deadline after `now`, so one drain never loops forever.
  private drain(): void {
    const now = performance.now();
    for (;;) {
      const top = this.heap.top;
      if (top === undefined || top.deadline > now) break;
      this.heap.pop();
      const cb = top.cb;
      if (cb === null) continue;
      top.cb = null;
      this.live--;
      this.fired++;
      try {
        cb();
      } catch (err) {
        // A throwing callback must not strand the others; surface it like an uncaught timer error.
        this.arm();
        queueMicrotask(() => {
          throw err;
        });
        return;
      }
    }
    this.arm();
  }

  // Chooses how to wait for the earliest live deadline: nothing, a poll turn, the thread, or a setTimeout.
  private arm(): void {
    const top = this.heap.firstLive();
    if (top === undefined) {
      this.disarm();
      return;
    }
    const wait = top.deadline - performance.now();
    const lead = this.leadMs;
    if (wait <= lead) {
      this.clearCoarse();
      if (!this.polling) {
        this.polling = true;
        setImmediate(this.onPoll);
      }
      return;
    }
    if (this.thread !== null) {
      this.thread.wakeAt(top.deadline - lead);
      return;
    }
    // The coarse timer may fire ~1 ms early; the poller (or a second coarse timer) absorbs that.
    const wakeAt = top.deadline - lead;
    if (this.coarse !== null && this.coarseAt <= wakeAt) return;
    this.clearCoarse();
    this.coarseAt = wakeAt;
    this.coarse = setTimeout(this.onWake, Math.max(1, Math.floor(wait - lead)));
  }

  private disarm(): void {
    this.clearCoarse();
    this.thread?.clear();
    // A pending poll finds nothing due and stops by itself.
  }

  private clearCoarse(): void {
    if (this.coarse !== null) {
      clearTimeout(this.coarse);
      this.coarse = null;
      this.coarseAt = Number.POSITIVE_INFINITY;
    }
  }
}
