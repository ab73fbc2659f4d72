// The worker pool in a thread of its own (`--pool thread`, the default): the main thread writes commands
// (submit, cancel, reset, reconfigure) into a shared ring and wakes the thread; the thread holds workers to
// their deadlines in a synchronous loop (pool-thread-loop.ts) and posts the ends back in batches. An event-
// loop stall on the main thread then delays a response, never a worker's end or the next start.
//
// This file is the AttemptPool the target uses: start, the attempts in flight and their callbacks, the
// ends coming back, a crash. The thread's program is pool-thread-source.ts; the shared memory's two
// main-thread sides are pool-thread-commands.ts (the ring it writes) and pool-thread-stats.ts (what it reads).

import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { AttemptEnd, PoolOptions, PoolStats, PoolTicket } from '../model/index.ts';
import type { AttemptPool, PoolCallbacks, PoolEnd } from './attempt-pool.ts';
import { PoolBacklogError, PoolThreadError } from './errors.ts';
import { PoolThreadCommands } from './pool-thread-commands.ts';
import { POOL_THREAD_LAYOUT as L, type PoolThreadInit } from './pool-thread-layout.ts';
import type { PoolThreadPriority } from './pool-thread-priority.ts';
import { POOL_THREAD_SOURCE } from './pool-thread-source.ts';
import { PoolThreadStats } from './pool-thread-stats.ts';

/** Options of the pool thread. */
interface PoolThreadOptions extends PoolOptions {
  /** 'rt' asks for SCHED_FIFO (falls back to normal, logged, when not permitted). */
  priority: 'rt' | 'normal';
  /** Command ring rows (power of two, default 65 536). */
  capacity?: number;
  /** Spin this long before each deadline instead of sleeping (ms, default 0: sleep all the way). */
  spinMs?: number;
  log: (message: string) => void;
}

/** The SCHED_FIFO priority of the pool thread: above the load generator's `chrt -f 10`. */
const POOL_THREAD_RT_PRIORITY = 20;
const DEFAULT_CAPACITY = 1 << 16;
const READY_TIMEOUT_MS = 10_000;

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
  private readonly commands: PoolThreadCommands;
  private readonly counters: PoolThreadStats;
  private readonly capacity: number;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private reffed = false;
  private closing = false;
  private failed: PoolThreadError | null = null;

  private constructor(
    private readonly opts: PoolThreadOptions,
    private readonly ready: (info: PoolThreadPriority) => void,
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
    this.commands = new PoolThreadCommands(init);
    this.counters = new PoolThreadStats(init);
    this.worker = new Worker(POOL_THREAD_SOURCE, { eval: true, workerData: init });
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
    let resolveReady!: (info: PoolThreadPriority) => void;
    const ready = new Promise<PoolThreadPriority>((r) => {
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
    return this.counters.snapshot()[L.stQueued]!;
  }

  get busyWorkers(): number {
    return this.counters.snapshot()[L.stBusy]!;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  submit(serviceMs: number, cb: PoolCallbacks): PoolTicket {
    if (this.failed !== null) throw this.failed;
    const id = this.nextId++;
    // A tied copy (it has onStart) asks the thread to report its start; other attempts are submitted as ever.
    if (!this.commands.write(L.opSubmit, id, serviceMs, cb.onStart === undefined ? 0 : 1)) {
      this.rejected++;
      throw new PoolBacklogError(this.capacity);
    }
    const p: Pending = { cb, cancelled: false };
    this.pending.set(id, p);
    this.setRef(true);
    return new ThreadTicket(id, () => {
      if (p.cancelled || !this.pending.has(id)) return;
      p.cancelled = true;
      this.send(L.opCancel, id);
    });
  }

  peerCancel(ticket: PoolTicket): void {
    if (!(ticket instanceof ThreadTicket) || !this.pending.has(ticket.id)) return;
    this.send(L.opPeerCancel, ticket.id);
  }

  stats(): PoolStats {
    return this.counters.stats();
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
    this.commands.write(L.opCrash, 0, 0, 0);
  }

  /** Stops the thread; attempts still in flight are never answered. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.commands.stop();
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
      if (kind === L.evStarted) {
        p.cb.onStart?.(ev[i + 3]!, ev[i + 5]!);
        continue;
      }
      if (kind === L.evPeerTooLate) {
        p.cb.onPeerTooLate?.(ev[i + 4]!);
        continue;
      }
      this.pending.delete(id);
      const byPeer = kind === L.evPeerRemoved;
      const end: PoolEnd = {
        ended: byPeer ? 'cancelled-queued' : ENDS[kind]!,
        enqueueMs: ev[i + 2]!,
        startMs: ev[i + 3]!,
        endMs: ev[i + 4]!,
        worker: ev[i + 5]!,
      };
      if (byPeer) end.byPeer = true;
      p.cb.onEnd(end);
    }
    if (this.pending.size === 0) this.setRef(false);
    if (this.commands.overflowing) this.commands.flushOverflow();
  }

  // A cancel (client or peer) goes behind any waiting for room, so the thread sees them in order.
  private send(op: number, id: number): void {
    if (this.commands.overflowing || !this.commands.write(op, id, 0, 0)) this.commands.deferCancel(id, op);
  }

  private control(op: number, a: number, b: number, what: string): void {
    if (this.failed !== null) throw this.failed;
    this.commands.control(op, a, b, what);
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

// hrtime ms − performance.now() ms on this thread, from the tightest of several brackets of one hrtime read:
// a bracket the scheduler interrupts (a loaded machine stretched one to 1.2 ms) would misplace every
// attempt's times by half of it.
function hrtimeOffsetMs(): number {
  let width = Number.POSITIVE_INFINITY;
  let offset = 0;
  for (let i = 0; i < 20; i++) {
    const p1 = performance.now();
    const h = Number(process.hrtime.bigint()) / 1e6;
    const p2 = performance.now();
    if (p2 - p1 < width) [width, offset] = [p2 - p1, h - (p1 + p2) / 2];
  }
  return offset;
}

// The target's handle on an attempt in the thread: the client's cancel, and the id a peer cancel names.
class ThreadTicket implements PoolTicket {
  constructor(
    readonly id: number,
    readonly cancel: () => void,
  ) {}
}
