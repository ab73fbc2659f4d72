// The worker pool in a thread of its own (`--pool thread`, the default): the main thread writes commands
// (submit, cancel, reset, reconfigure) into a shared ring and wakes the thread; the thread holds workers to
// their deadlines in a synchronous loop (pool-thread-loop.ts) and posts the ends back in batches. An event-
// loop stall on the main thread then delays a response, never a worker's end or the next start.
//
// The thread's code is passed as source (`eval: true`), like runtime/thread-waker.ts: the target ships as
// one esbuild bundle (dist/target-server.mjs, and inside dist/hedgebench.mjs), so there is no second file
// to deploy or to find at run time, and the same code runs under tsx, vitest and both bundles.

import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { AttemptEnd, PoolOptions, PoolStats, PoolTicket } from '../model/index.ts';
import type { AttemptPool, PoolCallbacks } from './attempt-pool.ts';
import { PoolBacklogError, PoolThreadError } from './errors.ts';
import { POOL_THREAD_LAYOUT as L, type PoolThreadInit, poolThreadLoop } from './pool-thread-loop.ts';

/** Options of the pool thread. */
export interface PoolThreadOptions extends PoolOptions {
  /** 'rt' asks for SCHED_FIFO (falls back to normal, logged, when not permitted). */
  priority: 'rt' | 'normal';
  /** Command ring rows (power of two, default 65 536). */
  capacity?: number;
  /** Spin this long before each deadline instead of sleeping (ms, default 0: sleep all the way). */
  spinMs?: number;
  log: (message: string) => void;
}

/** The SCHED_FIFO priority of the pool thread: above the load generator's `chrt -f 10`. */
export const POOL_THREAD_RT_PRIORITY = 20;
const DEFAULT_CAPACITY = 1 << 16;
const READY_TIMEOUT_MS = 10_000;
const ACK_TIMEOUT_MS = 2_000;

// tsx/esbuild's keepNames wraps functions in __name(); the eval'd source has no such helper, so define one.
// process.getBuiltinModule (Node ≥ 20.16/22.3) before require: an eval'd worker inherits
// --input-type=module from `node -e`, runs as ESM, and has no require.
const THREAD_SOURCE = `
var __name = (f) => f;
const load = process.getBuiltinModule ?? require;
const { workerData, parentPort } = load('node:worker_threads');
const { readlinkSync } = load('node:fs');
const { execFileSync } = load('node:child_process');
const host = {
  post: (m, t) => parentPort.postMessage(m, t),
  hrtimeMs: () => Number(process.hrtime.bigint()) / 1e6,
  perfNow: () => performance.now(),
  threadId: () => readlinkSync('/proc/thread-self').split('/').pop(),
  setRealtime: (tid, p) => { execFileSync('chrt', ['-f', '-p', String(p), tid], { stdio: 'pipe', timeout: 5000 }); },
};
(${poolThreadLoop.toString()})(workerData, host);
`;

const ENDS: AttemptEnd[] = ['served', 'cancelled-queued', 'cancelled-in-service'];

interface Pending {
  cb: PoolCallbacks;
  cancelled: boolean;
}

/** AttemptPool run by a dedicated thread; start it with PoolThread.start(). */
export class PoolThread implements AttemptPool {
  readonly mode = 'thread' as const;
  onCancelRequested: (() => void) | null = null;
  /** How the thread runs, as it reported at start (e.g. "SCHED_FIFO 20" or "normal"). */
  priority = 'unknown';
  /** Attempts refused because the ring was full. */
  rejected = 0;
  private readonly ctl: Int32Array;
  private readonly cmds: Float64Array;
  private readonly st: Float64Array;
  private readonly snap: Float64Array;
  private readonly capacity: number;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  // Cancels that found the ring full; sent as soon as it has room (a cancel is never dropped).
  private overflow: number[] = [];
  private overflowTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private ackSeq = 0;
  private reffed = false;
  private closing = false;
  private failed: PoolThreadError | null = null;

  private constructor(
    private readonly opts: PoolThreadOptions,
    private readonly ready: (info: { tid: string; priority: string; note: string }) => void,
  ) {
    const capacity = opts.capacity ?? DEFAULT_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 2 || (capacity & (capacity - 1)) !== 0) {
      throw new RangeError(`PoolThread: capacity must be a power of two ≥ 2, got ${capacity}`);
    }
    this.capacity = capacity;
    const init: PoolThreadInit = {
      layout: L,
      ctl: new SharedArrayBuffer(L.ctlCells * 4),
      cmds: new SharedArrayBuffer(capacity * L.cmdWidth * 8),
      stats: new SharedArrayBuffer(L.stCells * 8),
      capacity,
      // Both read the same monotonic clock; this offset is constant (as in runtime/thread-waker.ts).
      offsetMs: hrtimeOffsetMs(),
      workers: opts.workers,
      propagate: opts.cancellation === 'propagate',
      rtPriority: opts.priority === 'rt' ? POOL_THREAD_RT_PRIORITY : null,
      spinMs: opts.spinMs ?? Number(process.env.HEDGEBENCH_POOL_SPIN_MS ?? 0),
    };
    this.ctl = new Int32Array(init.ctl);
    this.cmds = new Float64Array(init.cmds);
    this.st = new Float64Array(init.stats);
    this.snap = new Float64Array(L.stCells);
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: init });
    this.worker.on('message', this.onMessage);
    this.worker.on('error', (err) => {
      this.fail(new PoolThreadError(`the pool thread crashed: ${err.message}`, { cause: err }));
    });
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new PoolThreadError(`the pool thread exited unexpectedly (code ${code})`));
    });
    // Like a pending timer, work in flight keeps the process alive and an idle pool does not.
    this.worker.unref();
  }

  /** Starts the thread and resolves once it runs (its priority settled and logged). */
  static async start(opts: PoolThreadOptions): Promise<PoolThread> {
    let resolveReady!: (info: { tid: string; priority: string; note: string }) => void;
    const ready = new Promise<{ tid: string; priority: string; note: string }>((r) => {
      resolveReady = r;
    });
    const pool = new PoolThread(opts, (info) => resolveReady(info));
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PoolThreadError(`the pool thread did not start within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      pool.worker.once('error', (err) =>
        reject(new PoolThreadError(`the pool thread failed to start: ${err.message}`, { cause: err })),
      );
    });
    try {
      const info = await Promise.race([ready, failed]);
      pool.priority = info.priority;
      const asked = opts.priority === 'rt' ? `asked SCHED_FIFO ${POOL_THREAD_RT_PRIORITY}` : 'asked normal';
      opts.log(
        `pool thread (TID ${info.tid || '?'}) runs at ${info.priority} priority (${asked}${info.note ? `; ${info.note}` : ''})`,
      );
      return pool;
    } catch (err) {
      await pool.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  get queueLength(): number {
    return this.snapshot()[L.stQueued]!;
  }

  get busyWorkers(): number {
    return this.snapshot()[L.stBusy]!;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  submit(serviceMs: number, cb: PoolCallbacks): PoolTicket {
    if (this.failed !== null) throw this.failed;
    const id = this.nextId++;
    if (!this.write(L.opSubmit, id, serviceMs, 0)) {
      this.rejected++;
      throw new PoolBacklogError(this.capacity);
    }
    const p: Pending = { cb, cancelled: false };
    this.pending.set(id, p);
    this.setRef(true);
    return {
      cancel: () => {
        if (p.cancelled || !this.pending.has(id)) return;
        p.cancelled = true;
        if (this.overflow.length > 0 || !this.write(L.opCancel, id, 0, 0)) this.deferCancel(id);
      },
    };
  }

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

  resetStats(): void {
    this.rejected = 0;
    this.control(L.opReset, 0, 0, 'resetStats');
  }

  reconfigure(opts: PoolOptions): void {
    if (this.pending.size > 0) {
      throw new PoolThreadError(
        `PoolThread.reconfigure: ${this.pending.size} attempts are queued or in service; wait until the pool is idle`,
      );
    }
    this.control(L.opReconfigure, opts.workers, opts.cancellation === 'propagate' ? 1 : 0, 'reconfigure');
  }

  /** Test hook: makes the thread throw, to prove a crash is reported rather than hung on. */
  crashForTest(): void {
    this.write(L.opCrash, 0, 0, 0);
  }

  /** Stops the thread; attempts still in flight are never answered. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.overflowTimer !== null) clearTimeout(this.overflowTimer);
    Atomics.store(this.ctl, L.ctlStop, 1);
    Atomics.add(this.ctl, L.ctlWrite, 1);
    Atomics.notify(this.ctl, L.ctlWrite);
    await this.worker.terminate();
  }

  private readonly onMessage = (msg: unknown): void => {
    if (msg instanceof Float64Array) {
      this.onEvents(msg);
      return;
    }
    const m = msg as { type?: string; tid: string; priority: string; note: string };
    if (m.type === 'ready') this.ready(m);
  };

  private onEvents(ev: Float64Array): void {
    for (let i = 0; i < ev.length; i += L.eventWidth) {
      const kind = ev[i]!;
      const id = ev[i + 1]!;
      if (kind === L.evCancelRequest) {
        this.onCancelRequested?.();
        continue;
      }
      const p = this.pending.get(id);
      if (p === undefined) continue;
      this.pending.delete(id);
      p.cb.onEnd({
        ended: ENDS[kind]!,
        enqueueMs: ev[i + 2]!,
        startMs: ev[i + 3]!,
        endMs: ev[i + 4]!,
        worker: ev[i + 5]!,
      });
    }
    if (this.pending.size === 0) this.setRef(false);
    if (this.overflow.length > 0) this.flushOverflow();
  }

  // Single producer, single consumer: the row is written before the write index moves past it.
  private write(op: number, id: number, a: number, b: number): boolean {
    const w = Atomics.load(this.ctl, L.ctlWrite);
    if (((w - Atomics.load(this.ctl, L.ctlRead)) | 0) >= this.capacity) return false;
    const row = (w & (this.capacity - 1)) * L.cmdWidth;
    this.cmds[row] = op;
    this.cmds[row + 1] = id;
    this.cmds[row + 2] = a;
    this.cmds[row + 3] = b;
    Atomics.store(this.ctl, L.ctlWrite, (w + 1) | 0);
    // Sequentially consistent: if the thread set `sleeping` after this load, its wait sees the new index.
    if (Atomics.load(this.ctl, L.ctlSleeping) === 1) Atomics.notify(this.ctl, L.ctlWrite);
    return true;
  }

  // Control commands come only while idle, so the thread answers within microseconds; waiting for its ack
  // makes /stats right after /reset (or PUT /config) exact.
  private control(op: number, a: number, b: number, what: string): void {
    if (this.failed !== null) throw this.failed;
    this.ackSeq = (this.ackSeq + 1) | 0;
    const seq = this.ackSeq;
    if (!this.write(op, seq, a, b)) {
      throw new PoolThreadError(`PoolThread.${what}: the command ring is full; the pool thread is stalled`);
    }
    const end = performance.now() + ACK_TIMEOUT_MS;
    for (;;) {
      const ack = Atomics.load(this.ctl, L.ctlAck);
      if (ack === seq) return;
      const left = end - performance.now();
      if (left <= 0) {
        throw new PoolThreadError(
          `PoolThread.${what}: the pool thread did not answer within ${ACK_TIMEOUT_MS} ms`,
        );
      }
      Atomics.wait(this.ctl, L.ctlAck, ack, Math.min(left, 10));
    }
  }

  private deferCancel(id: number): void {
    this.overflow.push(id);
    this.retryOverflowLater();
  }

  // The next batch of ends flushes the overflow too; the timer covers a thread that posts nothing.
  private retryOverflowLater(): void {
    if (this.closing) return;
    this.overflowTimer ??= setTimeout(() => {
      this.overflowTimer = null;
      this.flushOverflow();
    }, 1);
  }

  private flushOverflow(): void {
    let k = 0;
    while (k < this.overflow.length && this.write(L.opCancel, this.overflow[k]!, 0, 0)) k++;
    this.overflow = this.overflow.slice(k);
    if (this.overflow.length > 0) this.retryOverflowLater();
  }

  private snapshot(): Float64Array {
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

  private setRef(on: boolean): void {
    if (on === this.reffed) return;
    this.reffed = on;
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  private fail(err: PoolThreadError): void {
    if (this.failed !== null || this.closing) return;
    this.failed = err;
    this.opts.log(`${err.code}: ${err.message}; /work now answers 500 ${err.code}`);
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.setRef(false);
    for (const p of pending) p.cb.onFail(err);
  }
}

// hrtime ms − performance.now() ms on this thread, from reads taken around one hrtime read.
function hrtimeOffsetMs(): number {
  const p1 = performance.now();
  const h = Number(process.hrtime.bigint()) / 1e6;
  const p2 = performance.now();
  return h - (p1 + p2) / 2;
}
