// A target server's side of tied requests (docs/replicas.md, "Tied requests"): the copies of tied calls it holds,
// the peer cancels it sends when it starts one, and what the cancels it receives do — the real counterpart of
// simulator/tied-calls.ts. A cancel for a copy still queued removes it (in either cancellation mode: the
// server's own decision); one for a copy in service, or already ended, is too late; one for a copy not yet here
// is remembered (bounded, a few seconds of wall time) and drops the copy when it arrives.

import { performance } from 'node:perf_hooks';
import type { PeerCancelFate } from '../contract/index.ts';
import type { PoolTicket } from '../model/index.ts';

/** This machine's wall clock, epoch ms with µs: every process on one machine reads the same (records' times). */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** How long a cancel that came before its copy is remembered, and an ended copy known to have ended, wall ms. */
export const TIE_MEMORY_MS = 5_000;
/** Most cancels remembered (and ended copies known) at once: past it the oldest are forgotten (`expired`). */
export const TIE_MEMORY_MAX = 100_000;

/** GET /stats `peerCancel`: the point's peer cancels on this server, since the last reset. */
export interface PeerCancelStats {
  /** Cancels sent: one to each sibling of every tied copy this server started. */
  sent: number;
  /** … that failed (no connection, no answer in time, not 2xx): counted, never fatal. */
  failed: number;
  /** Cancels that reached this server. */
  received: number;
  /** … that removed a queued copy (it left without service). */
  removed: number;
  /** Copies dropped on arrival: a cancel was here first (remembered). */
  droppedOnArrival: number;
  /** … that found their copy in service, or ended. */
  tooLate: number;
  /** … that came before their copy and were remembered (a later copy is then dropped on arrival). */
  remembered: number;
  /** Remembered cancels whose copy never came within TIE_MEMORY_MS (or forgotten past TIE_MEMORY_MAX). */
  expired: number;
}

/** What a received cancel did at once (the /peer-cancel answer; `removing`: the pool thread decides). */
export type PeerCancelOutcome = 'removed' | 'removing' | 'too-late' | 'remembered' | 'ignored';

/** One tied copy on this server, from its arrival to its end: what its record says of its peer cancels. */
export class TiedCopy {
  ticket: PoolTicket | null = null;
  started = false;
  /** A peer cancel asked the pool to remove it and the pool has not answered yet (thread mode). */
  removing = false;
  /** When this server sent its cancels (it started the copy), epoch ms; NaN: not (yet). */
  sentMs = Number.NaN;
  /** When the first peer cancel for it arrived, epoch ms; NaN: none. */
  arrivedMs = Number.NaN;
  /**
   * When that cancel's fate was decided, epoch ms: the pool's removal (removed), the instant the pool or this
   * server found the copy started (too-late). Later than arrivedMs by the hand-off to the pool thread, and what
   * the race was decided by (analysis/judge/tie-replay.ts). NaN: none, or the pool never said.
   */
  decidedMs = Number.NaN;
  fate: PeerCancelFate | undefined = undefined;

  constructor(
    readonly call: number,
    readonly attempt: number,
    /** The replicas of its siblings, where its start sends a cancel. */
    readonly peers: readonly number[],
  ) {}
}

/** A copy refused at arrival: a peer cancel was here first. */
export interface DroppedCopy {
  /** When that cancel arrived, epoch ms. */
  arrivedMs: number;
}

interface Ahead {
  from: number;
  atMs: number;
  until: number;
}

/** The tied copies of the point this server measures. */
export class ServerTies {
  readonly stats: PeerCancelStats = emptyStats();
  private readonly live = new Map<number, TiedCopy>();
  // Both in insertion order, which is expiry order: the sweep looks at the front only.
  private readonly ahead = new Map<number, Ahead>();
  private readonly endedUntil = new Map<number, number>();

  constructor(
    /** Sends one peer cancel to the server of replica `replica`. */
    private readonly send: (replica: number, call: number, attempt: number) => void,
    /** Asks the pool to remove a queued copy (AttemptPool.peerCancel). */
    private readonly removeQueued: (ticket: PoolTicket) => void,
    /** Monotonic ms for the memory's expiry. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Copy `attempt` of `call` arrives: dropped when a sibling's cancel was here first, else tracked. */
  arrive(call: number, attempt: number, peers: readonly number[]): TiedCopy | DroppedCopy {
    this.sweep();
    const a = this.ahead.get(call);
    if (a !== undefined && a.from !== attempt) {
      this.ahead.delete(call);
      this.stats.droppedOnArrival++;
      return { arrivedMs: a.atMs };
    }
    const c = new TiedCopy(call, attempt, peers);
    this.live.set(call, c);
    return c;
  }

  /** Copy `c` started here: a peer cancel on its way to the pool is too late; its siblings are cancelled. */
  started(c: TiedCopy): void {
    c.started = true;
    if (c.removing) {
      c.removing = false;
      c.fate ??= 'too-late';
      this.stats.tooLate++;
    }
    c.sentMs = epochNowMs();
    for (const r of c.peers) this.send(r, c.call, c.attempt);
    this.stats.sent += c.peers.length;
  }

  /** Counts a cancel that failed on its way (PeerCancelClient). */
  failed(): void {
    this.stats.failed++;
  }

  /** The pool found copy `c` in service when a peer cancel reached it, at `atMs` (epoch). */
  foundStarted(c: TiedCopy, atMs: number): void {
    if (Number.isNaN(c.decidedMs)) c.decidedMs = atMs;
  }

  /** Copy `c` ended at `atMs` (epoch; `byPeer`: a peer cancel removed it from the queue). */
  ended(c: TiedCopy, byPeer: boolean, atMs = Number.NaN): void {
    if (this.live.get(c.call) === c) this.live.delete(c.call);
    if (byPeer) {
      c.decidedMs = atMs;
      c.fate = 'removed';
      this.stats.removed++;
    }
    // Gone another way first (a client's cancel in propagate mode): the peer's found nothing to do.
    c.removing = false;
    this.endedUntil.delete(c.call);
    this.endedUntil.set(c.call, this.now() + TIE_MEMORY_MS);
    this.bound(this.endedUntil, false);
  }

  /** A cancel from the server that started copy `from` of `call` arrived at `atMs` (epoch). */
  receive(call: number, from: number, atMs: number): PeerCancelOutcome {
    this.sweep();
    this.stats.received++;
    const c = this.live.get(call);
    if (c !== undefined) {
      if (c.attempt === from) return 'ignored';
      if (Number.isNaN(c.arrivedMs)) c.arrivedMs = atMs;
      if (c.started) {
        if (c.fate === undefined) {
          c.fate = 'too-late';
          c.decidedMs = atMs;
        }
        this.stats.tooLate++;
        return 'too-late';
      }
      if (c.removing || c.ticket === null) return 'removing';
      c.removing = true;
      // On the event loop's pool this ends the copy at once (ended() with byPeer); the thread answers later.
      this.removeQueued(c.ticket);
      return c.fate === 'removed' ? 'removed' : 'removing';
    }
    if (this.endedUntil.has(call)) {
      this.stats.tooLate++;
      return 'too-late';
    }
    // The copy is still on its way (or never comes): the earliest cancel is kept.
    if (!this.ahead.has(call)) {
      this.ahead.set(call, { from, atMs, until: this.now() + TIE_MEMORY_MS });
      this.stats.remembered++;
      this.bound(this.ahead, true);
    }
    return 'remembered';
  }

  /** Copies queued or in service (a point is over when none is). */
  get size(): number {
    return this.live.size;
  }

  /** Forgets the remembered cancels and ended copies (the point is over: PUT /config); counters stay. */
  forget(): void {
    this.live.clear();
    this.ahead.clear();
    this.endedUntil.clear();
  }

  /** Forgets everything and zeroes the counters (POST /reset, between points). */
  reset(): void {
    this.forget();
    Object.assign(this.stats, emptyStats());
  }

  // Forgets what has expired, oldest first.
  private sweep(): void {
    const t = this.now();
    for (const [call, a] of this.ahead) {
      if (a.until > t) break;
      this.ahead.delete(call);
      this.stats.expired++;
    }
    for (const [call, until] of this.endedUntil) {
      if (until > t) break;
      this.endedUntil.delete(call);
    }
  }

  private bound(m: Map<number, unknown>, counted: boolean): void {
    while (m.size > TIE_MEMORY_MAX) {
      const oldest = m.keys().next().value as number;
      m.delete(oldest);
      if (counted) this.stats.expired++;
    }
  }
}

function emptyStats(): PeerCancelStats {
  return {
    sent: 0,
    failed: 0,
    received: 0,
    removed: 0,
    droppedOnArrival: 0,
    tooLate: 0,
    remembered: 0,
    expired: 0,
  };
}
