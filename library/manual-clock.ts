// Simulated time: a clock that only moves when told to, firing timers in (time, insertion order), so a
// simulation or a test gives the same sequence of events on every run.
import type { Clock, TimerHandle } from './clock.ts';

/** Options of a ManualClock. */
export interface ManualClockOptions {
  /** Start time in ms (default 0). */
  start?: number;
  /** Microtask rounds flushed before and after each timer by the async helpers (default 64). */
  settleRounds?: number;
}

/** Handle of one timer; stale handles (fired, cancelled, slot reused) do nothing. */
class ManualTimer implements TimerHandle {
  constructor(
    private readonly clock: ManualClock,
    private readonly slot: number,
    private readonly seq: number,
  ) {}
  cancel(): void {
    this.clock.cancelSlot(this.slot, this.seq);
  }
}

/**
 * A Clock for simulation and tests. Events live in a binary heap kept in parallel typed arrays (time,
 * sequence number, slot), so comparisons touch no objects; callbacks sit in a plain array indexed by slot.
 * A cancelled timer is a tombstone (callback slot emptied) skipped when it reaches the top, and the heap
 * is compacted when tombstones outnumber live timers.
 */
export class ManualClock implements Clock {
  private t: number;
  private seqNext = 0;
  // The heap, entry i = (hTime[i], hSeq[i], hSlot[i]).
  private hTime: Float64Array;
  private hSeq: Float64Array;
  private hSlot: Uint32Array;
  private size = 0;
  private live = 0;
  // Per slot: its callback (null = free or cancelled) and the sequence number of the timer using it.
  private callbacks: ((() => void) | null)[] = [];
  private slotSeq: Float64Array;
  private free: number[] = [];
  private readonly settleRounds: number;

  constructor(options: ManualClockOptions = {}) {
    this.t = options.start ?? 0;
    this.settleRounds = options.settleRounds ?? 64;
    const cap = 1024;
    this.hTime = new Float64Array(cap);
    this.hSeq = new Float64Array(cap);
    this.hSlot = new Uint32Array(cap);
    this.slotSeq = new Float64Array(cap);
  }

  /** Current simulated time in ms. */
  now(): number {
    return this.t;
  }

  /** Schedules `cb` at now + max(0, delayMs); ties fire in the order they were scheduled. */
  setTimer(cb: () => void, delayMs: number): TimerHandle {
    const slot = this.schedule(cb, delayMs);
    return new ManualTimer(this, slot, this.slotSeq[slot]);
  }

  /** Like setTimer but returns the slot number (no handle allocated); cancel with cancelSlot(slot, seqOf(slot)). */
  schedule(cb: () => void, delayMs: number): number {
    const at = delayMs > 0 ? this.t + delayMs : this.t;
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.callbacks.length;
      this.callbacks.push(null);
      if (slot >= this.slotSeq.length) this.slotSeq = grown(this.slotSeq);
    }
    const seq = this.seqNext++;
    this.callbacks[slot] = cb;
    this.slotSeq[slot] = seq;
    if (this.size >= this.hTime.length) {
      this.hTime = grown(this.hTime);
      this.hSeq = grown(this.hSeq);
      this.hSlot = grown(this.hSlot);
    }
    this.siftUp(this.size++, at, seq, slot);
    this.live++;
    return slot;
  }

  /** Cancels the timer in `slot` if it is still the one scheduled with sequence number `seq`. */
  cancelSlot(slot: number, seq: number): void {
    if (this.slotSeq[slot] !== seq || this.callbacks[slot] === null) return;
    this.callbacks[slot] = null;
    this.live--;
    if (this.size > 4096 && this.size > 4 * this.live) this.compact();
  }

  /** Sequence number of the timer currently in `slot` (pairs with cancelSlot). */
  seqOf(slot: number): number {
    return this.slotSeq[slot];
  }

  /** Timers scheduled and neither fired nor cancelled. */
  pending(): number {
    return this.live;
  }

  /** Time of the next live timer, or undefined if none. */
  nextTime(): number | undefined {
    this.dropTombstones();
    return this.size > 0 ? this.hTime[0] : undefined;
  }

  /** Fires the next live timer (moving time to it); false if there was none. */
  runNext(): boolean {
    this.dropTombstones();
    if (this.size === 0) return false;
    this.fireTop();
    return true;
  }

  /** Fires every timer due at or before `time` (including ones scheduled meanwhile), then sets now = time. */
  runUntil(time: number): void {
    for (;;) {
      this.dropTombstones();
      if (this.size === 0 || this.hTime[0] > time) break;
      this.fireTop();
    }
    if (time > this.t) this.t = time;
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    this.runUntil(this.t + ms);
  }

  /** Fires timers until none is left or `maxEvents` fired; returns how many fired. */
  runAll(maxEvents = Number.MAX_SAFE_INTEGER): number {
    let n = 0;
    while (n < maxEvents && this.runNext()) n++;
    return n;
  }

  /** Lets pending promise continuations run (a bounded number of microtask rounds). */
  async settle(): Promise<void> {
    for (let i = 0; i < this.settleRounds; i++) await Promise.resolve();
  }

  /** advance(ms) for promise-based code: settles microtasks before and after every timer firing. */
  async advanceAsync(ms: number): Promise<void> {
    await this.runUntilAsync(this.t + ms);
  }

  /** runUntil(time) for promise-based code: settles microtasks before and after every timer firing. */
  async runUntilAsync(time: number): Promise<void> {
    await this.settle();
    for (;;) {
      this.dropTombstones();
      if (this.size === 0 || this.hTime[0] > time) break;
      this.fireTop();
      await this.settle();
    }
    if (time > this.t) this.t = time;
    await this.settle();
  }

  private fireTop(): void {
    const slot = this.hSlot[0];
    const at = this.hTime[0];
    this.popTop();
    const cb = this.callbacks[slot]!;
    this.callbacks[slot] = null;
    this.free.push(slot);
    this.live--;
    if (at > this.t) this.t = at;
    cb();
  }

  private dropTombstones(): void {
    while (this.size > 0 && this.callbacks[this.hSlot[0]] === null) {
      this.free.push(this.hSlot[0]);
      this.popTop();
    }
  }

  private popTop(): void {
    const last = --this.size;
    if (last > 0) this.siftDown(0, this.hTime[last], this.hSeq[last], this.hSlot[last]);
  }

  // Places entry (time, seq, slot) at or above index i.
  private siftUp(i: number, time: number, seq: number, slot: number): void {
    const hTime = this.hTime;
    const hSeq = this.hSeq;
    const hSlot = this.hSlot;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = hTime[parent];
      if (pt < time || (pt === time && hSeq[parent] < seq)) break;
      hTime[i] = pt;
      hSeq[i] = hSeq[parent];
      hSlot[i] = hSlot[parent];
      i = parent;
    }
    hTime[i] = time;
    hSeq[i] = seq;
    hSlot[i] = slot;
  }

  // Places entry (time, seq, slot) at or below index i.
  private siftDown(i: number, time: number, seq: number, slot: number): void {
    const hTime = this.hTime;
    const hSeq = this.hSeq;
    const hSlot = this.hSlot;
    const n = this.size;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      let ct = hTime[child];
      const right = child + 1;
      if (right < n) {
        const rt = hTime[right];
        if (rt < ct || (rt === ct && hSeq[right] < hSeq[child])) {
          child = right;
          ct = rt;
        }
      }
      if (time < ct || (time === ct && seq < hSeq[child])) break;
      hTime[i] = ct;
      hSeq[i] = hSeq[child];
      hSlot[i] = hSlot[child];
      i = child;
    }
    hTime[i] = time;
    hSeq[i] = seq;
    hSlot[i] = slot;
  }

  // Rebuilds the heap without tombstones; amortised O(1) because it runs only when they dominate.
  private compact(): void {
    let n = 0;
    for (let i = 0; i < this.size; i++) {
      const slot = this.hSlot[i];
      if (this.callbacks[slot] === null) {
        this.free.push(slot);
      } else {
        this.hTime[n] = this.hTime[i];
        this.hSeq[n] = this.hSeq[i];
        this.hSlot[n] = slot;
        n++;
      }
    }
    this.size = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.siftDown(i, this.hTime[i], this.hSeq[i], this.hSlot[i]);
  }
}

function grown<A extends Float64Array | Uint32Array>(a: A): A {
  const b = new (a.constructor as new (n: number) => A)(a.length * 2);
  b.set(a);
  return b;
}
