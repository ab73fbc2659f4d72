// The main thread's side of the pool thread's command ring (layout in pool-thread-layout.ts): rows it alone
// writes (single producer, single consumer), control commands it waits for the thread to acknowledge,
// cancels that found the ring full and wait for room, and the stop.

import { performance } from 'node:perf_hooks';
import { PoolThreadError } from './errors.ts';
import { POOL_THREAD_LAYOUT as L, type PoolThreadInit } from './pool-thread-layout.ts';

const ACK_TIMEOUT_MS = 2_000;

/** Writes commands for one pool thread. */
export class PoolThreadCommands {
  private readonly ctl: Int32Array;
  private readonly cmds: Float64Array;
  private readonly capacity: number;
  // Cancels (client or peer) that found the ring full, as (op, id) pairs; sent as soon as it has room (a
  // cancel is never dropped).
  private overflow: number[] = [];
  private overflowTimer: NodeJS.Timeout | null = null;
  private ackSeq = 0;
  private stopped = false;

  constructor(init: PoolThreadInit) {
    this.ctl = new Int32Array(init.ctl);
    this.cmds = new Float64Array(init.cmds);
    this.capacity = init.capacity;
  }

  /** Whether cancels wait for room in the ring. */
  get overflowing(): boolean {
    return this.overflow.length > 0;
  }

  // Single producer, single consumer: the row is written before the write index moves past it.
  /** Writes one command row; false when the ring is full. */
  write(op: number, id: number, a: number, b: number): boolean {
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
  /** Writes a control command and waits (bounded) until the thread has applied it. */
  control(op: number, a: number, b: number, what: string): void {
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

  /** Keeps cancel `id` (op: opCancel, or opPeerCancel) until the ring has room for it. */
  deferCancel(id: number, op: number = L.opCancel): void {
    this.overflow.push(op, id);
    this.retryOverflowLater();
  }

  // The next batch of ends flushes the overflow too; the timer covers a thread that posts nothing.
  private retryOverflowLater(): void {
    if (this.stopped) return;
    this.overflowTimer ??= setTimeout(() => {
      this.overflowTimer = null;
      this.flushOverflow();
    }, 1);
  }

  /** Writes as many waiting cancels as the ring takes now. */
  flushOverflow(): void {
    let k = 0;
    while (k < this.overflow.length && this.write(this.overflow[k]!, this.overflow[k + 1]!, 0, 0)) k += 2;
    this.overflow = this.overflow.slice(k);
    if (this.overflow.length > 0) this.retryOverflowLater();
  }

  /** Sets the stop cell and wakes the thread so it sees it; waiting cancels are dropped. */
  stop(): void {
    this.stopped = true;
    if (this.overflowTimer !== null) clearTimeout(this.overflowTimer);
    Atomics.store(this.ctl, L.ctlStop, 1);
    Atomics.add(this.ctl, L.ctlWrite, 1);
    Atomics.notify(this.ctl, L.ctlWrite);
  }
}
