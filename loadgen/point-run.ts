// The hot path of one point: per-call state in typed arrays, the scheduler's send, the pipeline call over
// the transport, and what happens when a call ends. Everything time-critical is here and allocation-light;
// what is built once lives beside it (point-schedule.ts, point-transport.ts, point-pipeline.ts, warm-up.ts).

import { callLine, LatencyHistogram } from '../contract/index.ts';
import type { CallState, Cancel, Clock, Operation, Outcome, Pipeline } from '../library/index.ts';
import { countsHedgesOnError, honoursPushback, warmupCalls } from '../model/index.ts';
import { AttemptFailedError } from './errors.ts';
import type { Transport } from './http-transport.ts';
import type { ResolvedOptions } from './loadgen-options.ts';
import { attemptsPerCall, newPointPipeline, pointPipeline } from './point-pipeline.ts';
import { pointSchedule } from './point-schedule.ts';
import { createPointTransport, type PointTransportHooks, pointCall } from './point-transport.ts';
import type { ReplicaTransport } from './replica-transport.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';
import type { LoadProgress } from './status-writer.ts';
import { tiedTags } from './tied-tags.ts';
import { InflightTimeline } from './timeline.ts';
import { warmUp } from './warm-up.ts';

/** Where a measured call's CSV line (contract/call-line.ts) goes: the stream recorder, if anywhere. */
interface LineSink {
  add(line: string): void;
}

/** One point's state and hot path; `start()` resolves when the point has ended (any way). */
export class PointRun {
  readonly calls: number;
  readonly warm: number;
  /** The point's arrival rate (all its clients together), calls/ms. */
  readonly ratePerMs: number;
  /** This process is client `client` of `clients`: it sends calls i ≡ client (mod clients). */
  readonly client: number;
  readonly clients: number;
  readonly maxMs: number;
  // Per-call state in typed arrays sized by `calls`: memory is fixed before the first send.
  readonly intended: Float64Array;
  readonly dispatchAt: Float64Array;
  /**
   * When each attempt's request was written, ms from t0, `attemptStride` slots per call: attempt 1's is
   * the call's send time, the winner's goes into its record.
   */
  private readonly writtenAt: Float64Array;
  private readonly attemptStride: number;
  private readonly finished: Uint8Array;
  /** grpc-js hedging: the attempt the server served each call with (0 = none yet); else null. */
  private readonly served: Uint8Array | null;
  readonly overhead: Float64Array | null;
  overheadN = 0;

  readonly latencyHist = new LatencyHistogram();
  readonly lagHist = new LatencyHistogram();
  readonly measured = { ok: 0, rejected: 0, failed: 0, hedged: 0, skipped: 0 };
  readonly attemptFailures: Record<string, number> = {};
  readonly timeline = new InflightTimeline();
  /** Every replica's transport as one (replica 0's own when there is one replica). */
  readonly transport: Transport;
  /** With several replicas: the per-replica view of `transport`. */
  readonly replicas: ReplicaTransport | null;
  /** The point's call records carry each call's hedges on error (model countsHedgesOnError). */
  private readonly countsHedgesOnError: boolean;
  private readonly inflightCalls = new Map<number, Cancel>();
  private readonly runCall: Operation<number>;
  private readonly pipe: Pipeline;
  private scheduler: Scheduler | null = null;
  t0 = 0;
  sent = 0;
  completed = 0;
  abandoned = 0;
  maxInflightSeen = 0;
  collapseReason: string | null = null;
  stopReason: string | null = null;
  private sendingEnded = false;
  private ended = false;
  private resolveEnd: () => void = () => {};
  sink: LineSink | null = null;

  constructor(
    private readonly o: ResolvedOptions,
    private readonly clock: Clock,
  ) {
    this.calls = o.calls;
    this.client = o.client;
    this.clients = o.clients;
    this.warm = warmupCalls({ calls: o.calls, warmupFraction: o.warmupFraction });
    const R = 1 + o.replicaTargets.length;
    const schedule = pointSchedule(o, R);
    this.ratePerMs = schedule.ratePerMs;
    this.intended = schedule.intended;
    this.maxMs = schedule.maxMs;
    this.dispatchAt = new Float64Array(this.calls).fill(Number.NaN);
    this.attemptStride = attemptsPerCall(o.config);
    this.served = o.config.grpcHedging === undefined ? null : new Uint8Array(this.calls);
    this.writtenAt = new Float64Array(this.calls * this.attemptStride).fill(Number.NaN);
    this.finished = new Uint8Array(this.calls);
    this.overhead = o.serverTiming ? new Float64Array(this.calls) : null;
    const common: PointTransportHooks = {
      serverTiming: o.serverTiming,
      now: () => clock.now(),
      onWritten: (call: number, attempt: number, at: number) => {
        if (attempt <= this.attemptStride)
          this.writtenAt[call * this.attemptStride + attempt - 1] = at - this.t0;
      },
      onFailed: (reason: string) => {
        this.attemptFailures[reason] = (this.attemptFailures[reason] ?? 0) + 1;
      },
      // Only a budget that honours pushback needs the responses' pushback header read.
      readPushback: honoursPushback(o.config),
    };
    this.countsHedgesOnError = countsHedgesOnError(o.config, o.model);
    const built = createPointTransport(o, R, common, (call, attempt) => {
      if (this.served !== null) this.served[call] = attempt;
    });
    this.replicas = built.replicas;
    this.transport = built.transport;
    this.pipe = pointPipeline(o, clock, R);
    this.runCall = pointCall(this.pipe, built, tiedTags(o, R));
  }

  /**
   * Before t0: `requests` calls through a pipeline of the same configuration, `concurrency` at a time, to a
   * side-effect-free route (the target's /health); see warm-up.ts.
   */
  warmUp(requests: number, concurrency: number, path: string, maxMs = 5_000): Promise<void> {
    return warmUp(
      () => newPointPipeline(this.o, this.clock),
      this.transport,
      { requests, concurrency, path, maxMs },
      () => this.stopReason !== null,
    );
  }

  /** Sends the schedule from t0 = now + 5 ms; resolves once every call ended, or the point was stopped. */
  start(): Promise<void> {
    if (this.ended) return Promise.resolve(); // stopped before it started
    const ended = new Promise<void>((resolve) => {
      this.resolveEnd = resolve;
    });
    this.t0 = this.clock.now() + 5;
    this.scheduler = createScheduler({
      clock: this.clock,
      intendedMs: this.intended,
      t0: this.t0,
      maxMs: this.maxMs,
      first: this.client,
      step: this.clients,
      send: this.send,
      onEnd: (reason) => {
        this.sendingEnded = true;
        if (reason === 'time' && this.collapseReason === null) {
          this.collapseReason = `wall-time cap of ${(this.maxMs / 1000).toFixed(1)} s reached while sending (${this.sent} of ${this.calls} calls sent)`;
        }
        if (reason !== 'done' || this.inflightCalls.size === 0) this.end();
      },
    });
    const wall = setTimeout(() => {
      if (this.collapseReason === null && this.stopReason === null) {
        this.collapseReason = `wall-time cap of ${(this.maxMs / 1000).toFixed(1)} s reached with ${this.inflightCalls.size} calls still in flight`;
      }
      this.end();
    }, this.maxMs + 5);
    const tick = setInterval(() => {
      const p = this.progress('running');
      this.timeline.add(p.t, p.inflight);
      this.o.onProgress?.(p);
    }, this.o.statusIntervalMs);
    if (this.stopReason !== null) this.end();
    else this.scheduler.start();
    return ended.then(() => {
      clearTimeout(wall);
      clearInterval(tick);
    });
  }

  /** Ends the point from outside with `reason` (it is then reported as failed). */
  stop(reason: string): void {
    this.stopReason ??= reason;
    this.end();
  }

  /** Progress so far, for the status hash and stderr. */
  progress(state: LoadProgress['state']): LoadProgress {
    return {
      state,
      t: (this.clock.now() - this.t0) / 1000,
      sent: this.sent,
      completed: this.completed,
      inflight: this.transport.inflight,
      p99Ms: this.latencyHist.percentile(99),
      sendLagP99Ms: this.lagHist.percentile(99),
    };
  }

  /** Index of the first call the scheduler had not handed to the pipeline (this client's calls below it were). */
  get scheduled(): number {
    return Math.min(this.calls, this.scheduler?.next ?? 0);
  }

  /** Actual send time of call i: when its first request was written, else when it was handed over. */
  sendTime(i: number): number {
    const written = this.writtenAt[i * this.attemptStride];
    return Number.isNaN(written) ? this.dispatchAt[i] : written;
  }

  // Stops sending and cancels every call still in flight (they are abandoned, never recorded).
  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.scheduler?.stop();
    this.abandoned = this.inflightCalls.size;
    const reason = new AttemptFailedError('point stopped');
    for (const cancel of this.inflightCalls.values()) cancel(reason);
    this.inflightCalls.clear();
    this.timeline.add((this.clock.now() - this.t0) / 1000, this.transport.inflight);
    this.resolveEnd();
  }

  private readonly send = (i: number, nowAbs: number): void => {
    this.dispatchAt[i] = nowAbs - this.t0;
    this.sent++;
    const cs = this.pipe.newCall(i);
    const cancel = this.runCall(cs, 1, (out) => this.onCallDone(i, cs, out));
    if (this.finished[i] === 0) this.inflightCalls.set(i, cancel);
    const inflight = this.transport.inflight;
    if (inflight > this.maxInflightSeen) this.maxInflightSeen = inflight;
    if (inflight >= this.o.maxInflight && this.collapseReason === null) {
      const files = this.o.openFiles == null ? '' : `, open-file limit ${this.o.openFiles}`;
      this.collapseReason = `attempts in flight reached the cap ${this.o.maxInflight}${files} at t=${(this.dispatchAt[i] / 1000).toFixed(3)} s (call ${i} of ${this.calls})`;
      this.end();
    }
  };

  private onCallDone(i: number, cs: CallState, out: Outcome<number>): void {
    this.finished[i] = 1;
    this.inflightCalls.delete(i);
    this.completed++;
    if (i >= this.warm) {
      // Latency runs from the INTENDED start: a stall is charged to every call scheduled during it.
      const latency = this.clock.now() - this.t0 - this.intended[i];
      const lag = this.sendTime(i) - this.intended[i];
      // grpc-js hedges out of sight: the attempt the server served is the winner, and at least that many were sent.
      if (this.served !== null && this.served[i] > 0) {
        cs.winner = this.served[i];
        if (cs.attempts < cs.winner) cs.attempts = cs.winner;
      }
      const outcome = out.ok ? 'ok' : cs.rejected ? 'rejected' : 'failed';
      this.measured[outcome]++;
      if (cs.attempts > 1) this.measured.hedged++;
      if (cs.skipped > 0) this.measured.skipped++;
      if (out.ok) {
        this.latencyHist.record(latency);
        if (this.overhead !== null && cs.winner === 1 && !Number.isNaN(out.value)) {
          this.overhead[this.overheadN++] = latency - out.value;
        }
      }
      this.lagHist.record(lag);
      const w = cs.winner;
      const winnerWritten =
        w >= 1 && w <= this.attemptStride ? this.writtenAt[i * this.attemptStride + w - 1] : Number.NaN;
      const onError = this.countsHedgesOnError ? cs.hedgedOnError : undefined;
      this.sink?.add(
        callLine(
          i,
          this.intended[i],
          lag,
          latency,
          outcome,
          cs.attempts,
          cs.skipped,
          w,
          winnerWritten,
          onError,
        ),
      );
      this.o.onCall?.({
        call: i,
        intendedMs: this.intended[i],
        sendLagMs: lag,
        latencyMs: latency,
        outcome,
        attempts: cs.attempts,
        skipped: cs.skipped,
        winner: w,
        winnerWrittenMs: winnerWritten,
        ...(onError === undefined ? {} : { hedgedOnError: onError }),
      });
    }
    if (this.sendingEnded && this.inflightCalls.size === 0) this.end();
  }
}
