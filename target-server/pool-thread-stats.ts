// The main thread's read of the pool thread's counters (layout in pool-thread-layout.ts): the thread
// publishes them under a seqlock after every pass of its loop, and this takes a consistent copy.

import { performance } from 'node:perf_hooks';
import type { PoolStats } from '../model/index.ts';
import { POOL_THREAD_LAYOUT as L, type PoolThreadInit } from './pool-thread-layout.ts';

/** Reads one pool thread's published counters. */
export class PoolThreadStats {
  private readonly ctl: Int32Array;
  private readonly st: Float64Array;
  private readonly snap: Float64Array;

  constructor(init: PoolThreadInit) {
    this.ctl = new Int32Array(init.ctl);
    this.st = new Float64Array(init.stats);
    this.snap = new Float64Array(L.stCells);
  }

  /** The counters as PoolStats, the queue area brought up to now. */
  stats(): PoolStats {
    const s = this.snapshot();
    const queued = s[L.stQueued]!;
    return {
      submitted: s[L.stSubmitted]!,
      served: s[L.stServed]!,
      cancelledQueued: s[L.stCancelledQueued]!,
      cancelledInService: s[L.stCancelledInService]!,
      cancelRequests: s[L.stCancelRequests]!,
      busyMs: s[L.stBusyMs]!,
      maxQueueLength: s[L.stMaxQueue]!,
      // The thread accrues the area at each queue change; add the stretch since the last one.
      queueAreaMs: s[L.stQueueArea]! + queued * Math.max(0, performance.now() - s[L.stLastQueueChange]!),
    };
  }

  /** A consistent copy of the stats cells (reused: read it before the next call). */
  snapshot(): Float64Array {
    // The thread writes a dozen numbers between the two bumps, so a retry or two suffices; the bound only
    // guards against a thread that died mid-write (then the last, possibly torn, copy is returned).
    for (let tries = 0; tries < 10_000; tries++) {
      const before = Atomics.load(this.ctl, L.ctlStatsSeq);
      if ((before & 1) === 0) {
        this.snap.set(this.st);
        if (Atomics.load(this.ctl, L.ctlStatsSeq) === before) return this.snap;
      }
    }
    this.snap.set(this.st);
    return this.snap;
  }
}
