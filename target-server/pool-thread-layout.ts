// The pool thread's shared-memory protocol, agreed by the main thread (pool-thread.ts and its helpers) and
// the loop (pool-thread-loop.ts): the cells and rows both sides read and write, what the thread starts from,
// and the few Node APIs the loop is handed because its source cannot import them.

/** Shared-memory layout, agreed by both sides. Commands and events are rows of float64. */
export const POOL_THREAD_LAYOUT = {
  // Int32 control cells.
  ctlWrite: 0,
  ctlRead: 1,
  ctlStop: 2,
  ctlAck: 3,
  ctlStatsSeq: 4,
  ctlSleeping: 5,
  ctlCells: 6,
  // Command row: [op, id, a, b]. opSubmit: a = service ms, b = 1 for a tied copy (its start is reported).
  cmdWidth: 4,
  opSubmit: 1,
  opCancel: 2,
  opReset: 3,
  opReconfigure: 4,
  opCrash: 5,
  // A tied copy's peer cancel: remove it if still queued, in either cancellation mode (WorkerPool.peerCancel).
  opPeerCancel: 6,
  // Event row: [kind, id, enqueue, start, end, worker].
  eventWidth: 6,
  evServed: 0,
  evCancelledQueued: 1,
  evCancelledInService: 2,
  evCancelRequest: 3,
  // A tied copy started (end = 0): only copies submitted with b = 1 report it.
  evStarted: 4,
  // A tied copy left the queue by its peer cancel (ended cancelled-queued, by the peer).
  evPeerRemoved: 5,
  // A peer cancel found its tied copy in service (end = when): the instant the race was lost, for the record.
  evPeerTooLate: 6,
  // Float64 stats cells.
  stQueued: 0,
  stBusy: 1,
  stSubmitted: 2,
  stServed: 3,
  stCancelledQueued: 4,
  stCancelledInService: 5,
  stCancelRequests: 6,
  stBusyMs: 7,
  stMaxQueue: 8,
  stQueueArea: 9,
  stLastQueueChange: 10,
  stCells: 11,
} as const;

/** What the thread starts from (its workerData). */
export interface PoolThreadInit {
  layout: typeof POOL_THREAD_LAYOUT;
  ctl: SharedArrayBuffer;
  cmds: SharedArrayBuffer;
  stats: SharedArrayBuffer;
  /** Command ring rows (a power of two). */
  capacity: number;
  /** hrtime ms − the main thread's performance.now() ms: subtracting it puts times on the target's clock. */
  offsetMs: number;
  workers: number;
  propagate: boolean;
  /** SCHED_FIFO priority to ask for, or null to stay at normal priority. */
  rtPriority: number | null;
  /** Sleep until this long before a deadline, then spin to it (ms; 0 = sleep all the way). */
  spinMs: number;
}

/** The Node APIs the loop uses, handed in because the loop's source cannot import. */
export interface PoolThreadHost {
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  /** Monotonic time, ms (process.hrtime): the same clock as the main thread's performance.now(). */
  hrtimeMs(): number;
  /** This thread's performance.now(): the same clock on another origin, and free of allocation. */
  perfNow(): number;
  /** This thread's Linux TID (from /proc/thread-self). */
  threadId(): string;
  /** Raises thread `tid` to SCHED_FIFO `priority`; throws when not permitted. */
  setRealtime(tid: string, priority: number): void;
}
