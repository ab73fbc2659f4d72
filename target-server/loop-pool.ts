// The pool on the main event loop: the model WorkerPool on the target's SystemClock. A worker's end waits
// for the event loop, so any stall there (parsing, GC, CPU contention) lengthens the hold; kept so
// benchmarks can compare it with PoolThread (`--pool loop`).

import { type PoolOptions, type PoolStats, type PoolTicket, WorkerPool } from '../model/index.ts';
import type { SystemClock } from '../runtime/index.ts';
import type { AttemptPool, PoolCallbacks, PoolEnd } from './attempt-pool.ts';

/** AttemptPool over the model WorkerPool, driven by the main thread's timers. */
export class LoopPool implements AttemptPool {
  readonly mode = 'loop' as const;
  readonly priority = 'event loop';
  private readonly pool: WorkerPool;
  // The ticket a peer cancel is removing right now: its end is the peer's (PoolEnd.byPeer).
  private peerCancelling: PoolTicket | null = null;
  onCancelRequested: (() => void) | null = null;

  constructor(
    private readonly clock: SystemClock,
    opts: PoolOptions,
  ) {
    this.pool = new WorkerPool(clock, opts);
  }

  get queueLength(): number {
    return this.pool.queueLength;
  }

  get busyWorkers(): number {
    return this.pool.busyWorkers;
  }

  get inFlight(): number {
    return this.pool.inFlight;
  }

  submit(serviceMs: number, cb: PoolCallbacks): PoolTicket {
    const enqueueMs = this.clock.now();
    let startMs = Number.NaN;
    let worker = -1;
    const onStart = cb.onStart;
    const ticket = this.pool.submit({
      serviceMs,
      onStart(w, now) {
        worker = w;
        startMs = now;
        onStart?.(now, w);
      },
      onEnd: (ended, endMs) => {
        const end: PoolEnd = { ended, enqueueMs, startMs, endMs, worker };
        // WorkerPool.peerCancel ends the attempt synchronously, inside peerCancel below.
        if (this.peerCancelling === ticket) end.byPeer = true;
        cb.onEnd(end);
      },
    });
    return new LoopTicket(ticket, () => {
      // The pool counts a cancel only for an attempt still queued or in service; mirror exactly that.
      const before = this.pool.stats().cancelRequests;
      ticket.cancel();
      if (this.pool.stats().cancelRequests !== before) this.onCancelRequested?.();
    });
  }

  peerCancel(ticket: PoolTicket): void {
    if (!(ticket instanceof LoopTicket)) return;
    this.peerCancelling = ticket.inner;
    try {
      this.pool.peerCancel(ticket.inner);
    } finally {
      this.peerCancelling = null;
    }
  }

  stats(): PoolStats {
    return this.pool.stats();
  }

  resetStats(): void {
    this.pool.resetStats();
  }

  reconfigure(opts: PoolOptions): void {
    this.pool.reconfigure(opts);
  }

  async close(): Promise<void> {}
}

// The target's handle on an attempt: the client's cancel, and the model pool's ticket a peer cancel needs.
class LoopTicket implements PoolTicket {
  constructor(
    readonly inner: PoolTicket,
    readonly cancel: () => void,
  ) {}
}
