// The service: N workers behind one FIFO queue shared by every attempt, on an injected Clock. The target
// server runs it on the system clock, the simulator on a ManualClock; both cancellation modes live here.

import type { Clock, TimerHandle } from '../library/index.ts';
import { PoolStateError } from './errors.ts';
import type { Cancellation } from './point.ts';

/**
 * How an attempt ended on the server (the `ended` column of raw/<slug>.attempts.csv). The pool itself ends an
 * attempt `served` or cancelled; `failed` is what the server records for a `served` one the model failed
 * (model/attempt-failure.ts: its worker held errorMs, the answer was an error).
 */
export type AttemptEnd = 'served' | 'failed' | 'cancelled-queued' | 'cancelled-in-service';

/** One attempt handed to the pool. `onEnd` fires exactly once. */
export interface PoolJob {
  serviceMs: number;
  onStart?(worker: number, now: number): void;
  onEnd(ended: AttemptEnd, now: number): void;
}

/** The client's handle on a submitted attempt. */
export interface PoolTicket {
  /** The client gave up on this attempt; what the server does about it depends on the cancellation mode. */
  cancel(): void;
}

/** Pool settings; `reconfigure` replaces them while the pool is idle. */
export interface PoolOptions {
  workers: number;
  cancellation: Cancellation;
}

/** Counters since construction or the last `resetStats()`. */
export interface PoolStats {
  submitted: number;
  served: number;
  cancelledQueued: number;
  cancelledInService: number;
  /** Cancels received for attempts still queued or in service (counted in both modes, once per attempt). */
  cancelRequests: number;
  /** Σ time workers spent on attempts (served in full, or until cancelled in service), ms. */
  busyMs: number;
  maxQueueLength: number;
  /** ∫ queue length dt, ms (mean queue length = queueAreaMs / elapsed). */
  queueAreaMs: number;
}

const QUEUED = 0;
const IN_SERVICE = 1;
const ENDED = 2;

// One submitted attempt; doubles as its ticket so a submit allocates one object.
class Entry implements PoolTicket {
  state = QUEUED;
  worker = -1;
  startedAt = 0;
  cancelRequested = false;
  timer: TimerHandle | null = null;

  constructor(
    readonly pool: WorkerPool,
    readonly job: PoolJob,
  ) {}

  cancel(): void {
    this.pool.cancelEntry(this);
  }
}

/** N workers, one FIFO queue; `ignore` or `propagate` cancellation. */
export class WorkerPool {
  private opts: PoolOptions;
  // Ring buffer of queued entries; cancelled ones stay as tombstones (state ENDED) until popped.
  private ring: (Entry | null)[] = new Array(1024).fill(null);
  private head = 0;
  private tail = 0;
  private queued = 0;
  private running: (Entry | null)[] = [];
  private free: number[] = [];
  // One completion callback per worker, made once: no closure per attempt on the hot path.
  private doneCbs: (() => void)[] = [];
  private s: PoolStats = emptyStats();
  private lastQueueChange: number;

  constructor(
    readonly clock: Clock,
    opts: PoolOptions,
  ) {
    this.opts = checkOptions(opts);
    this.setupWorkers();
    this.lastQueueChange = clock.now();
  }

  /** Attempts waiting for a worker. */
  get queueLength(): number {
    return this.queued;
  }

  /** Workers serving an attempt now. */
  get busyWorkers(): number {
    return this.opts.workers - this.free.length;
  }

  /** Attempts queued or in service. */
  get inFlight(): number {
    return this.queued + this.busyWorkers;
  }

  get workers(): number {
    return this.opts.workers;
  }

  get cancellation(): Cancellation {
    return this.opts.cancellation;
  }

  /** Queues an attempt (it starts at once if a worker is free and nobody waits before it). */
  submit(job: PoolJob): PoolTicket {
    const e = new Entry(this, job);
    this.s.submitted++;
    this.enqueue(e);
    if (this.free.length > 0) this.pump();
    return e;
  }

  /** A copy of the counters. */
  stats(): PoolStats {
    this.accrueQueue();
    return { ...this.s };
  }

  /** Zeroes the counters (attempts in flight keep running; their service counts when it ends). */
  resetStats(): void {
    this.s = emptyStats();
    this.s.maxQueueLength = this.queued;
    this.lastQueueChange = this.clock.now();
  }

  /** Changes workers or cancellation mode; allowed only when nothing is queued or in service. */
  reconfigure(opts: PoolOptions): void {
    if (this.inFlight > 0) {
      throw new PoolStateError(
        `WorkerPool.reconfigure: ${this.inFlight} attempts are queued or in service; wait until the pool is idle`,
      );
    }
    this.opts = checkOptions(opts);
    this.setupWorkers();
  }

  /**
   * A peer cancel (tied requests, model/tied.ts): the server drops the attempt if it is still queued, in
   * either cancellation mode — it is the server's own decision, not the client's cancel, so it counts in
   * `cancelledQueued` and not in `cancelRequests`. An attempt in service, ended, or not this pool's is left
   * alone. Returns whether the attempt was removed.
   */
  peerCancel(ticket: PoolTicket): boolean {
    if (!(ticket instanceof Entry) || ticket.pool !== this || ticket.state !== QUEUED) return false;
    // Left as a tombstone in the ring, as a cancelled queued attempt; pump() skips it.
    this.accrueQueue();
    this.queued--;
    ticket.state = ENDED;
    this.s.cancelledQueued++;
    ticket.job.onEnd('cancelled-queued', this.clock.now());
    return true;
  }

  /** @internal Called by a ticket. */
  cancelEntry(e: Entry): void {
    if (e.state === ENDED || e.cancelRequested) return;
    e.cancelRequested = true;
    this.s.cancelRequests++;
    if (this.opts.cancellation === 'ignore') return;
    const now = this.clock.now();
    if (e.state === QUEUED) {
      // Left as a tombstone in the ring; pump() skips it.
      this.accrueQueue();
      this.queued--;
      e.state = ENDED;
      this.s.cancelledQueued++;
      e.job.onEnd('cancelled-queued', now);
      return;
    }
    e.timer?.cancel();
    e.timer = null;
    this.release(e, now);
    this.s.cancelledInService++;
    this.pump();
    e.job.onEnd('cancelled-in-service', now);
  }

  private setupWorkers(): void {
    const n = this.opts.workers;
    this.running = new Array(n).fill(null);
    this.free = [];
    // Stack of free workers: worker 0 is taken first.
    for (let w = n - 1; w >= 0; w--) this.free.push(w);
    this.doneCbs = [];
    for (let w = 0; w < n; w++) this.doneCbs.push(() => this.complete(w));
  }

  private complete(w: number): void {
    const e = this.running[w]!;
    const now = this.clock.now();
    e.timer = null;
    this.release(e, now);
    this.s.served++;
    // The freed worker takes the next queued attempt before anyone reacts to this end, so an attempt
    // submitted from onEnd cannot overtake the queue.
    this.pump();
    e.job.onEnd('served', now);
  }

  private release(e: Entry, now: number): void {
    e.state = ENDED;
    this.s.busyMs += now - e.startedAt;
    this.running[e.worker] = null;
    this.free.push(e.worker);
  }

  private enqueue(e: Entry): void {
    if (this.tail - this.head === this.ring.length) this.grow();
    this.accrueQueue();
    this.ring[this.tail % this.ring.length] = e;
    this.tail++;
    this.queued++;
    if (this.queued > this.s.maxQueueLength) this.s.maxQueueLength = this.queued;
  }

  private pump(): void {
    while (this.free.length > 0 && this.head < this.tail) {
      const i = this.head % this.ring.length;
      const e = this.ring[i]!;
      this.ring[i] = null;
      this.head++;
      if (e.state === ENDED) continue;
      this.accrueQueue();
      this.queued--;
      const w = this.free.pop()!;
      const now = this.clock.now();
      e.state = IN_SERVICE;
      e.worker = w;
      e.startedAt = now;
      this.running[w] = e;
      e.timer = this.clock.setTimer(this.doneCbs[w], e.job.serviceMs);
      e.job.onStart?.(w, now);
    }
  }

  private grow(): void {
    const n = this.ring.length;
    const next: (Entry | null)[] = new Array(n * 2).fill(null);
    for (let k = 0; k < n; k++) next[k] = this.ring[(this.head + k) % n];
    this.ring = next;
    this.tail -= this.head;
    this.head = 0;
  }

  private accrueQueue(): void {
    const now = this.clock.now();
    this.s.queueAreaMs += this.queued * (now - this.lastQueueChange);
    this.lastQueueChange = now;
  }
}

function emptyStats(): PoolStats {
  return {
    submitted: 0,
    served: 0,
    cancelledQueued: 0,
    cancelledInService: 0,
    cancelRequests: 0,
    busyMs: 0,
    maxQueueLength: 0,
    queueAreaMs: 0,
  };
}

function checkOptions(opts: PoolOptions): PoolOptions {
  if (!Number.isInteger(opts.workers) || opts.workers < 1) {
    throw new PoolStateError(`WorkerPool: workers must be an integer ≥ 1, got ${opts.workers}`);
  }
  if (opts.cancellation !== 'ignore' && opts.cancellation !== 'propagate') {
    throw new PoolStateError(
      `WorkerPool: cancellation must be 'ignore' or 'propagate', got ${JSON.stringify(opts.cancellation)}`,
    );
  }
  return { workers: opts.workers, cancellation: opts.cancellation };
}
