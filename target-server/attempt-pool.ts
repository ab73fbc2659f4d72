// The worker pool as the target sees it, whichever way it runs: on the main event loop (LoopPool) or in a
// thread of its own (PoolThread). Both keep the model WorkerPool's semantics: FIFO, at most `workers` in
// service, `ignore` / `propagate` cancellation.

import type { AttemptEnd, PoolOptions, PoolStats, PoolTicket } from '../model/index.ts';

/** Where the pool runs: 'loop' = the model WorkerPool on the main event loop; 'thread' = its own thread. */
export type PoolMode = 'loop' | 'thread';
export const POOL_MODES: readonly PoolMode[] = ['loop', 'thread'];

/** How one attempt ended, with the pool's own times (ms on the target's SystemClock). */
export interface PoolEnd {
  ended: AttemptEnd;
  enqueueMs: number;
  /** NaN when the attempt never started. */
  startMs: number;
  endMs: number;
  /** -1 when the attempt never started. */
  worker: number;
  /** True when a peer cancel (AttemptPool.peerCancel) removed it from the queue; absent otherwise. */
  byPeer?: true;
}

/** Callbacks of one attempt: exactly one of onEnd and onFail is called, once. */
export interface PoolCallbacks {
  onEnd(end: PoolEnd): void;
  /** The pool itself failed (its thread died); the attempt's fate is unknown. */
  onFail(err: Error): void;
  /**
   * A tied copy's start (ms on the target's SystemClock, the worker), reported as soon as the pool knows: the
   * server then cancels the copy's siblings. Given only for tied copies; other attempts report no start.
   */
  onStart?(startMs: number, worker: number): void;
  /**
   * A peer cancel reached the pool after this tied copy started (ms on the target's SystemClock): only the pool
   * thread reports it, as it decides later than the server; on the event loop the server decides at once.
   */
  onPeerTooLate?(atMs: number): void;
}

/** The target's worker pool. */
export interface AttemptPool {
  readonly mode: PoolMode;
  /** How the pool's clock is scheduled, for /stats (e.g. "SCHED_FIFO 20", "normal", "event loop"). */
  readonly priority: string;
  /** Queues an attempt held for `serviceMs`; throws a TargetServerError when it cannot take it. */
  submit(serviceMs: number, cb: PoolCallbacks): PoolTicket;
  /** Attempts waiting for a worker. */
  readonly queueLength: number;
  /** Workers serving an attempt now. */
  readonly busyWorkers: number;
  /** Attempts submitted whose end the target has not yet been told (control routes answer 409 while > 0). */
  readonly inFlight: number;
  stats(): PoolStats;
  resetStats(): void;
  reconfigure(opts: PoolOptions): void;
  /**
   * A peer cancel (tied requests): removes the attempt if it is still queued, in either cancellation mode (the
   * server's own decision; WorkerPool.peerCancel), and then ends it with `byPeer`; one in service or ended is
   * left alone. The outcome comes through the attempt's callbacks (in thread mode later, in order with its start).
   */
  peerCancel(ticket: PoolTicket): void;
  /** Called once per client abort that reached an attempt still queued or in service. */
  onCancelRequested: (() => void) | null;
  close(): Promise<void>;
}
