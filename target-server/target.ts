// The service behind the HTTP routes: the worker pool (on the event loop or in its own thread, see
// attempt-pool.ts), the model's service times, counters since reset, the hold-time error, and the attempt
// records of the point being measured (each line from contract/attempt-line.ts, into attempt-recorder.ts's recorder).

import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { type AttemptEnd, attemptLine, redisKeys } from '../contract/index.ts';
import {
  attemptFails,
  dilateModel,
  errorHoldMs,
  type ModelParams,
  type PoolTicket,
  pushbackMsAt,
  replicaServiceMs,
  SINGLE_REPLICA,
  serviceTimeMs,
} from '../model/index.ts';
import type { StreamRecorder, SystemClock } from '../runtime/index.ts';
import type { AttemptPool } from './attempt-pool.ts';
import { closeAttemptRecorder, openAttemptRecorder, RECORDER_CLOSE_MS } from './attempt-recorder.ts';
import { applyPatch, type ConfigPatch, type ServerConfig } from './config.ts';
import { BadParameterError, BusyError, PoolBacklogError, type TargetServerError } from './errors.ts';
import { HoldTimeHistogram } from './hold-time.ts';
import { loopDelaySummary } from './loop-delay.ts';
import type { TargetMetrics } from './metrics.ts';
import type { TargetStats } from './target-stats.ts';

/** What the server measured for one attempt; the /work response is built from it. */
export interface AttemptResult {
  /** `failed`: the model failed it (its worker held errorMs); the route answers 503 / UNAVAILABLE. */
  ended: AttemptEnd;
  queueMs: number;
  /** Measured hold time (end − start); 0 when never started. */
  serviceMs: number;
  /** The model's draw for this attempt (a failing one's: errorMs, the hold it was meant to have). */
  intendedMs: number;
  worker: number;
  /**
   * No hedges for this long, wall ms: the model's pushback rule fired as the response left (the queue was
   * longer than its bound); 0 = none. The route sends it as `hedgebench-pushback-ms`.
   */
  pushbackMs: number;
}

/** Distinct client addresses /stats counts one by one (a bound, so a scan cannot grow the map forever). */
export const CLIENT_ADDRESSES_MAX = 64;

/** The target's state; one per server. */
export class Target {
  private cfg: ServerConfig;
  private readonly hold = new HoldTimeHistogram();
  // Worker released → response written, per answered attempt: how long a ready response waited for this
  // event loop. The target's own check of its main thread (the pool thread's is the hold overshoot).
  private readonly responseDelay = new HoldTimeHistogram();
  // How late the event loop ran a 1 ms timer: a stall here delays responses (and, with the pool on this
  // loop, holds) — the target's own check of the point, beside the hold overshoot.
  private readonly loopDelay: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  // The load generator warms up against /health as fast as it can before its first call; that burst is not
  // the point's load, so the event-loop delay is counted from the first /work after a reset.
  private loadStarted = false;
  private resetAt: number;
  private resetCpu = process.cpuUsage();
  private resetElu = performance.eventLoopUtilization();
  private badRequests = 0;
  private poolRejected = 0;
  private readonly clients = new Map<string, number>();
  /** Answers held back by a response delay (a perturbation): still in flight for /stats and PUT /config. */
  private pendingResponses = 0;
  private recorder: StreamRecorder | null = null;
  private recordKey: string | null = null;
  metrics: TargetMetrics | null = null;

  constructor(
    readonly clock: SystemClock,
    initial: ServerConfig,
    readonly version: string,
    private readonly redis: Redis | null,
    private readonly onLog: (message: string) => void,
    /** Built for `initial` (its workers and cancellation mode). */
    readonly pool: AttemptPool,
  ) {
    this.cfg = initial;
    this.wallModel = dilateModel(initial.model, initial.timeScale);
    this.loopDelay.enable();
    pool.onCancelRequested = () => this.metrics?.cancelRequested();
    this.resetAt = clock.now();
    if (initial.record) this.openRecorder(initial);
  }

  /** `cfg.model` as the clock runs it (model/time-scale.ts), made once per PUT /config, not per attempt. */
  private wallModel: ModelParams;

  get config(): ServerConfig {
    return this.cfg;
  }

  /**
   * Enqueues attempt `attempt` of call `call`; `done` gets the result when the attempt ends, or the error
   * when the pool failed, and returns when it wrote the response (NaN when it sent none), which goes into
   * the attempt's record. Throws PoolBacklogError (503) when the pool cannot take it.
   */
  submit(call: number, attempt: number, done: (r: AttemptResult | TargetServerError) => number): PoolTicket {
    const cfg = this.cfg;
    const wm = this.wallModel;
    // The model's failure of this attempt (the simulator draws the same): its worker holds errorMs instead.
    const fails = attemptFails(wm, cfg.seed, call, attempt);
    // Today's draw unless this server is one of several replicas with shared stragglers or a slow node.
    const intendedMs = fails
      ? errorHoldMs(wm)
      : cfg.correlation === 0 && cfg.slowReplica === 1
        ? serviceTimeMs(wm, cfg.seed, call, attempt)
        : replicaServiceMs(
            wm,
            { ...SINGLE_REPLICA, correlation: cfg.correlation, slowReplica: cfg.slowReplica },
            cfg.seed,
            call,
            attempt,
            cfg.replica,
          );
    const pushback = wm.pushback;
    if (!this.loadStarted) {
      this.loadStarted = true;
      this.loopDelay.reset();
    }
    try {
      return this.pool.submit(intendedMs, {
        onEnd: ({ ended: poolEnd, enqueueMs, startMs, endMs, worker }) => {
          // The pool served it; the model says whether its answer is the error.
          const ended: AttemptEnd = fails && poolEnd === 'served' ? 'failed' : poolEnd;
          const started = !Number.isNaN(startMs);
          // Start and end come from the pool itself (the pool thread's own times in thread mode), so this is
          // the hold as the worker saw it, not as the event loop later got round to noticing it.
          const held = started ? endMs - startMs : 0;
          if (poolEnd === 'served') this.hold.record(held - intendedMs);
          this.metrics?.attemptEnded(ended);
          const answer = (): void => {
            const respondedMs = done({
              ended,
              queueMs: (started ? startMs : endMs) - enqueueMs,
              serviceMs: held,
              intendedMs,
              worker,
              // The rule reads the queue as the response leaves (the simulator: as the worker frees).
              pushbackMs: pushback === undefined ? 0 : pushbackMsAt(pushback, this.pool.queueLength),
            });
            this.recorder?.add(
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
                // One of several replicas: the record says which (ATTEMPT_REPLICA_FIELD).
                cfg.replicas > 1 ? cfg.replica : undefined,
              ),
            );
            if (!Number.isNaN(respondedMs)) this.responseDelay.record(respondedMs - endMs);
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
      });
    } catch (err) {
      if (err instanceof PoolBacklogError) this.poolRejected++;
      throw err;
    }
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
    let previous: TargetStats['recorder'] = null;
    const nextKey = next.record ? redisKeys(next.record.run, next.record.slug).attempts : null;
    if (nextKey !== this.recordKey) {
      previous = await this.closeRecorder();
      if (next.record) this.openRecorder(next);
    }
    return { config: next, previous };
  }

  /** POST /reset: zero counters, utilisation and the hold-time histogram (only while idle). */
  reset(): void {
    this.assertIdle();
    this.pool.resetStats();
    this.hold.reset();
    this.responseDelay.reset();
    this.loopDelay.reset();
    this.loadStarted = false;
    this.badRequests = 0;
    this.poolRejected = 0;
    this.resetAt = this.clock.now();
    this.resetCpu = process.cpuUsage();
    this.resetElu = performance.eventLoopUtilization();
  }

  stats(): TargetStats {
    const p = this.pool.stats();
    const elapsed = this.clock.now() - this.resetAt;
    const workers = this.cfg.workers;
    const cpu = process.cpuUsage(this.resetCpu);
    return {
      version: this.version,
      config: this.cfg,
      queueLength: this.pool.queueLength,
      busyWorkers: this.pool.busyWorkers,
      inFlight: this.pool.inFlight + this.pendingResponses,
      sinceResetMs: elapsed,
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
      holdErrorMs: this.hold.summary(),
      responseDelayMs: this.responseDelay.summary(),
      eventLoopDelayMs: loopDelaySummary(this.loopDelay),
      cpu: {
        userMs: cpu.user / 1000,
        systemMs: cpu.system / 1000,
        cores: elapsed > 0 ? (cpu.user + cpu.system) / 1000 / elapsed : 0,
      },
      eventLoopUtilisation: performance.eventLoopUtilization(this.resetElu).utilization,
      clients: Object.fromEntries(this.clients),
      recorder: this.recorder && this.recordKey ? { key: this.recordKey, ...this.recorder.stats() } : null,
    };
  }

  /** Stops the event-loop monitor (its timer must not outlive the server). */
  close(): void {
    this.loopDelay.disable();
  }

  /** Flushes and closes the recorder (bounded wait); returns its final counters. */
  async closeRecorder(timeoutMs = RECORDER_CLOSE_MS): Promise<TargetStats['recorder']> {
    const rec = this.recorder;
    const key = this.recordKey;
    if (rec === null || key === null) return null;
    this.recorder = null;
    this.recordKey = null;
    return closeAttemptRecorder(rec, key, timeoutMs, this.onLog);
  }

  private openRecorder(cfg: ServerConfig): void {
    const opened = openAttemptRecorder(this.redis, cfg, this.onLog);
    if (opened === null) return;
    this.recorder = opened.recorder;
    this.recordKey = opened.key;
  }

  private assertIdle(): void {
    const n = this.pool.inFlight + this.pendingResponses;
    if (n > 0) throw new BusyError(n);
  }
}
