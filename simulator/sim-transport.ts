// The simulated transport: the Operation the library's pipeline calls for each attempt. It sends the attempt
// to its replica's model WorkerPool (the one the balancer picked; replica 0 without a balancer) with the
// model's service time for (seed, call, attempt) on that replica — or, when the model fails the attempt, its
// errorMs, answered with an error; a response leaving a long queue carries the model's pushback. Without a network
// (the default) every trip takes no time; with one (model/transport-delays.ts) the request, the response and the
// cancellation each take their drawn delay. A tied point's copies cancel each other from their servers
// (simulator/tied-calls.ts).

import type { AttemptEnd, AttemptRecord } from '../contract/index.ts';
import type { CallState, Operation, Outcome } from '../library/index.ts';
import type {
  ModelParams,
  PoolJob,
  PoolTicket,
  PushbackRule,
  ReplicaSetup,
  TransportParams,
  WorkerPool,
} from '../model/index.ts';
import {
  attemptFails,
  hasFailures,
  holdOvershootMs,
  intendedHoldMs,
  ModelFailureError,
  pushbackMsAt,
  replayedReplica,
  replicaOf,
  SINGLE_REPLICA,
  transportDelayMs,
} from '../model/index.ts';
import { type TiedCall, TiedCalls, type TiedCopy } from './tied-calls.ts';

const OK: Outcome<void> = Object.freeze({ ok: true, value: undefined });
// One error for every failure the model makes: an outcome only carries it, and an Error per attempt would
// capture a stack each time for nothing.
const MODEL_FAILURE = new ModelFailureError();
const FAILED: Outcome<void> = Object.freeze({ ok: false, error: MODEL_FAILURE });

/**
 * The outcome of an answered attempt: ok or the model's failure, with the model's pushback when the pool's
 * queue is above the rule's bound as the response leaves (the instant the worker frees, after it took the
 * next attempt waiting). The frozen outcomes when nothing is pushed back: no allocation on today's path.
 */
function answer(failed: boolean, pool: WorkerPool, rule: PushbackRule | undefined): Outcome<void> {
  const pushbackMs = rule === undefined ? 0 : pushbackMsAt(rule, pool.queueLength);
  if (pushbackMs <= 0) return failed ? FAILED : OK;
  return failed
    ? { ok: false, error: MODEL_FAILURE, pushbackMs }
    : { ok: true, value: undefined, pushbackMs };
}

/** Sends attempts to the replicas' pools; sums worker time and queue wait of attempts of measured calls. */
export class SimTransport {
  /** Σ service time (served, or until cancelled in service) of attempts of calls ≥ measuredFrom, ms. */
  busyMeasuredMs = 0;
  /** busyMeasuredMs by replica. */
  readonly busyByReplica: Float64Array;
  /** Σ queue wait of attempts of measured calls that reached a worker, ms. */
  waitMeasuredMs = 0;
  /** Attempts of measured calls that reached a worker. */
  startedMeasured = 0;
  /** Attempts sent to the pool. */
  sent = 0;
  /** Worker time by measured call (index call − measuredFrom), when the point keeps per-call records. */
  busyByCall: Float64Array | undefined = undefined;
  /** The model makes attempts fail (model/attempt-failure.ts); false = no draw is made, today's path. */
  readonly failures: boolean;
  /** The model's pushback rule, in the clock's ms; undefined = responses never push back. */
  readonly pushback: PushbackRule | undefined;

  /** Σ service time of the attempts that won their call (measured calls), ms; the rest of busyMeasuredMs is extra. */
  winnerBusyMeasuredMs = 0;
  /** The calls whose copies cancel each other from their servers (a tied point, cancel on-start), or undefined. */
  readonly ties: TiedCalls | undefined;
  /** The operation to compose into a pipeline. */
  readonly op: Operation<void>;

  private readonly plainOp: Operation<void> = (call, attempt, done) => {
    this.sent++;
    const replica = replicaOf(call.replicas, attempt);
    if (this.net !== undefined) {
      const n = new NetAttempt(this, call, attempt, replica, done, Number.NaN);
      n.send(this.net);
      return () => n.cancel();
    }
    const pool = this.pools[replica];
    const a = new SimAttempt(this, call, attempt, replica, done, pool.clock.now());
    a.ticket = pool.submit(a);
    // Anonymous on purpose: a named per-call closure costs a defineProperty under esbuild's keepNames (tsx).
    return () => a.cancel();
  };

  // Every attempt is a copy of its call's tie: it reaches its server through the tie, which may drop it.
  private readonly tiedOp: Operation<void> = (call, attempt, done) => {
    this.sent++;
    const replica = replayedReplica(this.net, call.call, attempt, replicaOf(call.replicas, attempt));
    const tie = this.ties!.of(call, attempt);
    if (this.net !== undefined) {
      const n = new NetAttempt(this, call, attempt, replica, done, Number.NaN);
      n.tie = tie;
      n.send(this.net);
      return () => n.cancel();
    }
    const now = this.pools[replica].clock.now();
    const a = new SimAttempt(this, call, attempt, replica, done, now);
    a.tie = tie;
    tie.arrive(a, now);
    return () => a.cancel();
  };

  /**
   * `onAttempt`, when given, sees every attempt's record as it ends (in-process use: tests, raw output);
   * `net`, when given, delays every trip (absent: the zero-delay transport, exactly as before it existed);
   * `tiedCopies` > 0: each call's that many copies cancel each other when one starts (model/tied.ts).
   */
  constructor(
    readonly pools: readonly WorkerPool[],
    readonly model: ModelParams,
    readonly seed: number,
    readonly measuredFrom: number,
    readonly onAttempt?: (r: AttemptRecord) => void,
    readonly setup: ReplicaSetup = SINGLE_REPLICA,
    readonly net?: TransportParams,
    tiedCopies = 0,
  ) {
    this.busyByReplica = new Float64Array(pools.length);
    this.failures = hasFailures(model);
    this.pushback = model.pushback;
    this.ties =
      tiedCopies > 0 ? new TiedCalls(tiedCopies, pools[0].clock, seed, measuredFrom, net) : undefined;
    this.op = this.ties === undefined ? this.plainOp : this.tiedOp;
  }
}

// One attempt in the pool; it is its own PoolJob, so a send allocates this object and one canceller closure.
class SimAttempt implements PoolJob, TiedCopy {
  /**
   * What the worker holds: the service draw, or a failing attempt's errorMs; on a replayed point, with the
   * measurement's overshoot.
   */
  readonly serviceMs: number;
  /** The model failed this attempt: its answer is an error. */
  protected readonly failed: boolean;
  ticket: PoolTicket | null = null;
  startedAt = -1;
  protected worker = -1;
  protected live = true;
  /** Its worker time, ms (measured calls only): what a win adds to winnerBusyMeasuredMs. */
  protected heldMs = 0;
  /** The call's tie when the point's copies cancel each other; undefined otherwise. */
  tie: TiedCall | undefined = undefined;

  constructor(
    protected readonly t: SimTransport,
    protected readonly call: CallState,
    readonly attempt: number,
    protected readonly replica: number,
    protected readonly done: (o: Outcome<void>) => void,
    protected enqueuedAt: number,
  ) {
    this.failed = t.failures && attemptFails(t.model, t.seed, call.call, attempt);
    const ms = intendedHoldMs(t.model, t.setup, t.seed, call.call, attempt, replica, this.failed);
    // A replayed point's workers hold each attempt as much longer as the measurement's did
    // (model/transport-replay.ts); never less than nothing.
    this.serviceMs =
      t.net?.replay === undefined ? ms : Math.max(0, ms + holdOvershootMs(t.net, call.call, attempt));
  }

  /** The pool of this attempt's replica. */
  get pool(): WorkerPool {
    return this.t.pools[this.replica];
  }

  /** Queues the attempt on its replica (a tie's copy, when it is let in). */
  submit(): void {
    this.ticket = this.pool.submit(this);
  }

  /** A peer cancel was at its server first: it ends there without being queued. */
  drop(now: number): void {
    this.finish('cancelled-queued', now, false);
  }

  /** An attempt left the pool: counts its worker time (measured calls) and reports its record. */
  protected finish(ended: AttemptEnd, now: number, answered: boolean): void {
    const t = this.t;
    if (this.startedAt >= 0 && this.call.call >= t.measuredFrom) {
      this.heldMs = now - this.startedAt;
      t.busyMeasuredMs += now - this.startedAt;
      t.busyByReplica[this.replica] += now - this.startedAt;
      if (t.busyByCall !== undefined) t.busyByCall[this.call.call - t.measuredFrom] += now - this.startedAt;
    }
    if (t.onAttempt === undefined) return;
    t.onAttempt({
      call: this.call.call,
      attempt: this.attempt,
      enqueueMs: this.enqueuedAt,
      startMs: this.startedAt >= 0 ? this.startedAt : Number.NaN,
      endMs: now,
      // Served by the pool, failed by the model: the record says so, as the target server's does.
      ended: this.failed && ended === 'served' ? 'failed' : ended,
      worker: this.worker,
      serviceMs: this.serviceMs,
      respondedMs: answered ? now : Number.NaN,
      // As a target server's record says, when the point has several.
      ...(t.setup.replicas > 1 ? { replica: this.replica } : {}),
    });
  }

  onStart(worker: number, now: number): void {
    this.startedAt = now;
    this.worker = worker;
    const t = this.t;
    if (this.call.call >= t.measuredFrom) {
      t.waitMeasuredMs += now - this.enqueuedAt;
      t.startedMeasured++;
    }
    if (this.tie !== undefined) this.tie.started(this, now);
  }

  onEnd(ended: AttemptEnd, now: number): void {
    // The simulated server answers at the instant service ends, and only a live attempt is answered.
    this.finish(ended, now, ended === 'served' && this.live);
    // A cancelled attempt reports nothing: the library has already moved on.
    if (ended === 'served' && this.live) {
      this.live = false;
      this.t.winnerBusyMeasuredMs += this.heldMs;
      const rule = this.t.pushback;
      // Without a pushback rule the frozen outcomes, as before: nothing more on today's path.
      this.done(rule === undefined ? (this.failed ? FAILED : OK) : answer(this.failed, this.pool, rule));
    }
  }

  // The library cancels a loser (or the whole call); the pool decides what that means for the server.
  cancel(): void {
    if (!this.live) return;
    this.live = false;
    this.ticket?.cancel();
  }
}

// An attempt over a network: the request reaches the pool after its delay, the response the client after
// its own, and a cancellation the server after its own. The library's view (live) and the server's
// (cancelReached) differ while a cancellation travels: the server may still serve and answer a loser, and
// the client drops that answer. A cancellation that overtakes its request cancels it on arrival.
class NetAttempt extends SimAttempt {
  private cancelReached = false;
  private net: TransportParams | undefined;

  send(net: TransportParams): void {
    this.net = net;
    const t = this.t;
    const d = transportDelayMs(net, 'request', t.seed, this.call.call, this.attempt);
    this.pool.clock.setTimer(() => this.arrive(), d);
  }

  private arrive(): void {
    this.enqueuedAt = this.pool.clock.now();
    if (this.tie === undefined) this.ticket = this.pool.submit(this);
    else this.tie.arrive(this, this.enqueuedAt);
    if (this.cancelReached) this.ticket?.cancel();
  }

  override onEnd(ended: AttemptEnd, now: number): void {
    // The server answers what it served unless it knows the client gave up.
    const answered = ended === 'served' && !this.cancelReached;
    this.finish(ended, now, answered);
    if (!answered || !this.live) return;
    const d = transportDelayMs(this.net!, 'response', this.t.seed, this.call.call, this.attempt);
    // Pushback is decided as the response leaves the server, not as it reaches the client.
    const out = answer(this.failed, this.pool, this.t.pushback);
    this.pool.clock.setTimer(() => {
      if (!this.live) return;
      this.live = false;
      this.t.winnerBusyMeasuredMs += this.heldMs;
      this.done(out);
    }, d);
  }

  override cancel(): void {
    if (!this.live) return;
    this.live = false;
    const t = this.t;
    const d = transportDelayMs(this.net!, 'cancel', t.seed, this.call.call, this.attempt);
    this.pool.clock.setTimer(() => {
      this.cancelReached = true;
      this.ticket?.cancel();
    }, d);
  }
}
