// Tied requests in the simulator (model/tied.ts): the copies of one call, each on its own replica's pool, and
// the peer cancels between their servers. The server that starts a copy sends a cancel to the server of every
// other copy; it arrives after the one-way delay between servers (0 without a network; with one, a draw of the
// request direction's delay) and removes that copy if it is still queued, in either cancellation mode. A copy
// already in service runs on: both run. A cancel that reaches a server before its copy is remembered there and
// drops the copy when it arrives — unless both arrive at the same instant: the copy is then enqueued first, so
// a gap of 0 on a zero-delay network sends both copies before either server can have heard of the other, and
// on idle replicas both start (the case Dean & Barroso's gap is for).

import type { CallState, Clock } from '../library/index.ts';
import { type PoolTicket, peerCancelDelayMs, type TransportParams, type WorkerPool } from '../model/index.ts';

/** What a tied call needs of each of its copies (the simulator's attempts implement it). */
export interface TiedCopy {
  /** Its copy number, 1-based (the library's attempt). */
  readonly attempt: number;
  /** Its replica's pool. */
  readonly pool: WorkerPool;
  /** Its place in the pool; null before it arrived, or when it was dropped on arrival. */
  readonly ticket: PoolTicket | null;
  /** When its service began, ms; < 0 = not (yet) started. */
  readonly startedAt: number;
  /** Hands the copy to its pool (it may start at once, and then calls `started`). */
  submit(): void;
  /** Reports the copy as ended without reaching the queue: a peer cancel was there first. */
  drop(now: number): void;
}

/** What the peer cancels of a point's measured calls did. */
export interface PeerCancelCounts {
  /** Cancels sent: each copy that starts cancels every other copy of its call. */
  sent: number;
  /** ... that removed a queued copy (it cost no service time). */
  removedQueued: number;
  /** ... that reached a copy's server before the copy, which was then dropped on arrival (no service time). */
  droppedOnArrival: number;
  /** ... that arrived after their copy had started, later than the sender's: both ran (the extra work). */
  tooLate: number;
  /** Calls of which more than one copy started. */
  callsBothRan: number;
}

/** The tied calls of one point: one TiedCall per call, made at its first copy, and the point's counts. */
export class TiedCalls {
  readonly counts: PeerCancelCounts = {
    sent: 0,
    removedQueued: 0,
    droppedOnArrival: 0,
    tooLate: 0,
    callsBothRan: 0,
  };
  // The ties of calls in progress, by call index; a cancel in flight or a copy in a pool holds its tie itself.
  // (Not a WeakMap by CallState: its ephemerons cost the GC, and a tied point ran far slower than the same hedge.)
  private readonly ties = new Map<number, TiedCall>();

  constructor(
    /** Copies per call (their numbers 1..copies; a copy the budget refused never arrives). */
    readonly copies: number,
    readonly clock: Clock,
    readonly seed: number,
    /** Calls from this index on are measured (counted). */
    readonly measuredFrom: number,
    /** The network between servers; absent = every cancel arrives at once. */
    readonly net: TransportParams | undefined,
  ) {}

  /** The tie of `call`, whose copy `copy` is being sent: made at its first copy, found again for the next. */
  of(call: CallState, copy: number): TiedCall {
    let tie = copy <= 1 ? undefined : this.ties.get(call.call);
    if (tie === undefined) {
      tie = new TiedCall(this, call.call);
      this.ties.set(call.call, tie);
    }
    return tie;
  }

  /** Call `call` ended: it sends no further copy, so its tie need not be found any more. */
  forget(call: number): void {
    this.ties.delete(call);
  }
}

/** One call's copies as their servers know them. */
export class TiedCall {
  /** The copies that reached their server, by copy number. */
  private readonly arrived: (TiedCopy | undefined)[];
  /**
   * Per copy k: when a peer cancel reached its server before the copy did (NaN = none yet), at [2k], and whose
   * it was, at [2k + 1]; made at the first such cancel.
   */
  private ahead: number[] | undefined = undefined;
  private startedCopies = 0;
  private readonly measured: boolean;

  constructor(
    private readonly owner: TiedCalls,
    private readonly call: number,
  ) {
    this.arrived = new Array<TiedCopy | undefined>(owner.copies + 1).fill(undefined);
    this.measured = call >= owner.measuredFrom;
  }

  /** Copy `c` reaches its server at `now`: dropped if a cancel was there before it, else queued. */
  arrive(c: TiedCopy, now: number): void {
    const k = c.attempt;
    const at = this.ahead === undefined ? Number.NaN : this.ahead[2 * k];
    this.arrived[k] = c;
    if (at < now) {
      if (this.measured) this.owner.counts.droppedOnArrival++;
      c.drop(now);
      return;
    }
    c.submit();
    // A cancel of the same instant comes after the copy: it finds it queued, or started at once.
    if (at === now) this.deliver(this.ahead![2 * k + 1], k, now);
  }

  /** Copy `c` started at `now` on its server, which cancels every other copy. */
  started(c: TiedCopy, now: number): void {
    const o = this.owner;
    if (++this.startedCopies === 2 && this.measured) o.counts.callsBothRan++;
    for (let j = 1; j <= o.copies; j++) {
      if (j === c.attempt) continue;
      if (this.measured) o.counts.sent++;
      const d = o.net === undefined ? 0 : peerCancelDelayMs(o.net, o.seed, this.call, c.attempt, j);
      const from = c.attempt;
      if (d > 0) o.clock.setTimer(() => this.deliver(from, j, o.clock.now()), d);
      else this.deliver(from, j, now);
    }
  }

  // The cancel of copy `from`'s server reaches copy `to`'s server at `now`.
  private deliver(from: number, to: number, now: number): void {
    const c = this.arrived[to];
    if (c === undefined) {
      // Not there yet (on its way, or not sent): remembered, the earliest cancel first.
      if (this.ahead === undefined) this.ahead = new Array<number>(2 * this.arrived.length).fill(Number.NaN);
      if (!(this.ahead[2 * to] <= now)) {
        this.ahead[2 * to] = now;
        this.ahead[2 * to + 1] = from;
      }
      return;
    }
    const counts = this.owner.counts;
    if (c.startedAt >= 0) {
      // Too late, counted once a pair: when the copy started after the sender's (ties by copy number).
      const s = this.arrived[from]!.startedAt;
      if (this.measured && (c.startedAt > s || (c.startedAt === s && to > from))) counts.tooLate++;
      return;
    }
    // Still queued: removed. Already gone without service (dropped, or cancelled by the client): nothing.
    if (c.ticket !== null && c.pool.peerCancel(c.ticket) && this.measured) counts.removedQueued++;
  }
}
