// The service behind the HTTP routes: the worker pool (on the event loop or in its own thread, see
// attempt-pool.ts), the model's service times, counters since reset, its checks of itself
// (server-checks.ts), the attempt records of the point being measured (each line from
// contract/attempt-line.ts, into attempt-recorder.ts's recorder), and a tied point's copies and peer
// cancels (target-ties.ts).

import type { Redis } from 'ioredis';
import { type AttemptEnd, attemptLine, tiedAttemptCells } from '../contract/index.ts';
import {
  attemptFails,
  dilateModel,
  intendedHoldMs,
  type ModelParams,
  type PoolTicket,
  pushbackMsAt,
  type ReplicaSetup,
} from '../model/index.ts';
import type { SystemClock } from '../runtime/index.ts';
import type { AttemptPool, PoolCallbacks } from './attempt-pool.ts';
import { PointRecording } from './attempt-recorder.ts';
import type { AttemptResult, Done } from './attempt-result.ts';
import { applyPatch, type ConfigPatch, type ServerConfig, serviceSetupOf } from './config.ts';
import { BadParameterError, BusyError, PoolBacklogError, type TargetServerError } from './errors.ts';
import type { TargetMetrics } from './metrics.ts';
import { ServerChecks } from './server-checks.ts';
import type { TargetStats } from './target-stats.ts';
import { droppedAttemptLine, TargetTies, TiedCopy } from './target-ties.ts';
import type { PeerCancelOutcome } from './tied-copies.ts';

// The handle of a copy dropped on arrival: nothing is left to cancel.
const DROPPED: PoolTicket = Object.freeze({ cancel() {} });
const NO_PEERS: readonly number[] = Object.freeze([]);

/** Distinct client addresses /stats counts one by one (a bound, so a scan cannot grow the map forever). */
const CLIENT_ADDRESSES_MAX = 64;

/** The target's state; one per server. */
export class Target {
  private cfg: ServerConfig;
  private readonly checks = new ServerChecks();
  private resetAt: number;
  private badRequests = 0;
  private poolRejected = 0;
  private readonly clients = new Map<string, number>();
  /** Answers held back by a response delay (a perturbation): still in flight for /stats and PUT /config. */
  private pendingResponses = 0;
  private readonly recording: PointRecording;
  metrics: TargetMetrics | null = null;
  /** Tied requests: the point's copies and peer cancels (inactive while the point is not tied). */
  readonly tied: TargetTies;

  constructor(
    readonly clock: SystemClock,
    initial: ServerConfig,
    readonly version: string,
    private readonly redis: Redis | null,
    onLog: (message: string) => void,
    /** Built for `initial` (its workers and cancellation mode). */
    readonly pool: AttemptPool,
    /** The control routes' token, which also opens the peers' /peer-cancel (tied points). */
    token: string | null = null,
  ) {
    this.cfg = initial;
    this.tied = new TargetTies(pool, token, onLog);
    this.tied.configure(initial);
    this.wallModel = dilateModel(initial.model, initial.timeScale);
    this.serviceSetup = serviceSetupOf(initial);
    pool.onCancelRequested = () => this.metrics?.cancelRequested();
    this.resetAt = clock.now();
    this.recording = new PointRecording(redis, onLog);
    this.recording.open(initial);
  }

  /** `cfg.model` as the clock runs it (model/time-scale.ts), made once per PUT /config, not per attempt. */
  private wallModel: ModelParams;
  /** What of the replica setup changes this server's service times, likewise. */
  private serviceSetup: ReplicaSetup;

  get config(): ServerConfig {
    return this.cfg;
  }

  /**
   * Enqueues attempt `attempt` of call `call`; `done` gets the result when the attempt ends, or the error
   * when the pool failed, and returns when it wrote the response (NaN when it sent none), which goes into
   * the attempt's record. Throws PoolBacklogError (503) when the pool cannot take it.
   */
  submit(call: number, attempt: number, done: Done, peers: readonly number[] = NO_PEERS): PoolTicket {
    const cfg = this.cfg;
    const wm = this.wallModel;
    // A tied point: every attempt is a copy of its call's tie, which a sibling's cancel may have dropped already.
    const tie = this.tied.arrive(call, attempt, peers);
    // The model's failure of this attempt (the simulator draws the same): its answer is the error, and its
    // worker holds errorMs instead of a service draw (intendedHoldMs).
    const fails = attemptFails(wm, cfg.seed, call, attempt);
    const intendedMs = intendedHoldMs(wm, this.serviceSetup, cfg.seed, call, attempt, cfg.replica, fails);
    const pushback = wm.pushback;
    this.checks.workArrived();
    if (tie !== null && !(tie instanceof TiedCopy)) {
      this.dropOnArrival(call, attempt, intendedMs, tie.arrivedMs, done);
      return DROPPED;
    }
    const ties = this.tied.ties;
    const cb: PoolCallbacks = {
      onEnd: ({ ended: poolEnd, enqueueMs, startMs, endMs, worker, byPeer }) => {
        if (tie !== null) ties!.ended(tie, byPeer === true, this.clock.epochOriginMs + endMs);
        // The pool served it; the model says whether its answer is the error.
        const ended: AttemptEnd = fails && poolEnd === 'served' ? 'failed' : poolEnd;
        const started = !Number.isNaN(startMs);
        // Start and end come from the pool itself (the pool thread's own times in thread mode), so this is
        // the hold as the worker saw it, not as the event loop later got round to noticing it.
        const held = started ? endMs - startMs : 0;
        if (poolEnd === 'served') this.checks.recordHold(held - intendedMs);
        this.metrics?.attemptEnded(ended);
        const answer = (): void => {
          const r: AttemptResult = {
            ended,
            queueMs: (started ? startMs : endMs) - enqueueMs,
            serviceMs: held,
            intendedMs,
            worker,
            // The rule reads the queue as the response leaves (the simulator: as the worker frees).
            pushbackMs: pushback === undefined ? 0 : pushbackMsAt(pushback, this.pool.queueLength),
          };
          if (byPeer === true) r.peerCancelled = true;
          const respondedMs = done(r);
          // One of several replicas: the record says which (ATTEMPT_REPLICA_FIELD); a tied copy, its cancels.
          const replica = cfg.replicas > 1 ? cfg.replica : undefined;
          const cells = tie === null ? undefined : tiedAttemptCells(tie);
          this.recording.add(
            attemptLine(
              call,
              attempt,
              enqueueMs,
              startMs,
              endMs,
              ended,
              worker,
              intendedMs,
              respondedMs,
              replica,
              cells,
            ),
          );
          if (!Number.isNaN(respondedMs)) this.checks.recordResponseDelay(respondedMs - endMs);
        };
        const waitMs = cfg.responseDelayMs * cfg.timeScale;
        if (waitMs <= 0 || poolEnd !== 'served') {
          answer();
          return;
        }
        // The worker is free again; only the answer waits, as a slow event loop or network would make it.
        this.pendingResponses++;
        this.clock.setTimer(() => {
          this.pendingResponses--;
          answer();
        }, waitMs);
      },
      onFail: (err) => done(err as TargetServerError),
    };
    // Only a tied copy reports its start: the pool (thread) sends no start events for other attempts.
    if (tie !== null) {
      cb.onStart = () => ties!.started(tie);
      cb.onPeerTooLate = (atMs) => ties!.foundStarted(tie, this.clock.epochOriginMs + atMs);
    }
    try {
      const ticket = this.pool.submit(intendedMs, cb);
      if (tie !== null) tie.ticket = ticket;
      return ticket;
    } catch (err) {
      if (err instanceof PoolBacklogError) this.poolRejected++;
      if (tie !== null) ties!.ended(tie, false);
      throw err;
    }
  }

  /** A sibling's peer cancel for `call`, sent when copy `from` started there, arrived at `atMs` (epoch). */
  peerCancel(call: number, from: number, atMs: number): PeerCancelOutcome {
    return this.tied.receive(call, from, atMs);
  }

  // A copy whose sibling's cancel came first: never queued, recorded as cancelled while queued, answered 410.
  private dropOnArrival(c: number, a: number, intendedMs: number, at: number, done: Done): void {
    // Arrived (and ended) now, before its answer is written.
    const now = this.clock.now();
    const r: AttemptResult = {
      ended: 'cancelled-queued',
      queueMs: 0,
      serviceMs: 0,
      intendedMs,
      worker: -1,
      pushbackMs: 0,
    };
    r.peerCancelled = true;
    this.recording.add(droppedAttemptLine(this.cfg, c, a, now, intendedMs, done(r), at));
  }

  /** Counts a /work request by its client's address (shows which hosts really sent the load). */
  countClient(address: string | undefined): void {
    let a = address ?? 'unknown';
    if (!this.clients.has(a) && this.clients.size >= CLIENT_ADDRESSES_MAX) a = 'other';
    this.clients.set(a, (this.clients.get(a) ?? 0) + 1);
  }

  /** Counts a request refused with 400. */
  countBadRequest(): void {
    this.badRequests++;
    this.metrics?.badRequest();
  }

  /** Applies PUT /config (only while idle); closes the previous point's recorder first. */
  async reconfigure(
    patch: ConfigPatch,
  ): Promise<{ config: ServerConfig; previous: TargetStats['recorder'] }> {
    this.assertIdle();
    const next = applyPatch(this.cfg, patch);
    if (next.record && this.redis === null) {
      throw new BadParameterError(
        'run',
        'PUT /config: run/slug ask for attempt records but the server was started without --redis URL',
      );
    }
    this.pool.reconfigure({ workers: next.workers, cancellation: next.cancellation });
    this.cfg = next;
    this.wallModel = dilateModel(next.model, next.timeScale);
    this.serviceSetup = serviceSetupOf(next);
    this.tied.configure(next);
    return { config: next, previous: await this.recording.switchTo(next) };
  }

  /** POST /reset: zero counters, utilisation and the hold-time histogram (only while idle). */
  reset(): void {
    this.assertIdle();
    this.pool.resetStats();
    this.checks.reset();
    this.tied.reset();
    this.badRequests = 0;
    this.poolRejected = 0;
    this.resetAt = this.clock.now();
  }

  stats(): TargetStats {
    const p = this.pool.stats();
    const elapsed = this.clock.now() - this.resetAt;
    const workers = this.cfg.workers;
    return {
      version: this.version,
      config: this.cfg,
      queueLength: this.pool.queueLength,
      busyWorkers: this.pool.busyWorkers,
      inFlight: this.pool.inFlight + this.pendingResponses,
      sinceResetMs: elapsed,
      clockEpochMs: this.clock.epochOriginMs,
      utilisation: elapsed > 0 ? p.busyMs / (workers * elapsed) : 0,
      meanQueueLength: elapsed > 0 ? p.queueAreaMs / elapsed : 0,
      maxQueueLength: p.maxQueueLength,
      submitted: p.submitted,
      served: p.served,
      cancelledQueued: p.cancelledQueued,
      cancelledInService: p.cancelledInService,
      cancelRequests: p.cancelRequests,
      badRequests: this.badRequests,
      pool: { mode: this.pool.mode, priority: this.pool.priority, rejected: this.poolRejected },
      ...this.checks.figures(elapsed),
      clients: Object.fromEntries(this.clients),
      peerCancel: this.tied.stats(),
      recorder: this.recording.stats(),
    };
  }

  /** Stops the event-loop monitor (its timer must not outlive the server) and the peers' connections. */
  async close(): Promise<void> {
    this.checks.close();
    await this.tied.close();
  }

  /** Flushes and closes the recorder (bounded wait); returns its final counters. */
  closeRecorder(timeoutMs?: number): Promise<TargetStats['recorder']> {
    return this.recording.close(timeoutMs);
  }

  private assertIdle(): void {
    const n = this.pool.inFlight + this.pendingResponses;
    if (n > 0) throw new BusyError(n);
  }
}
