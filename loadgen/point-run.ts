// The hot path of one point: per-call state in typed arrays, the scheduler's send, the pipeline call over
// the transport, and what happens when a call ends. Everything time-critical is here and allocation-light.

import { callLine, LatencyHistogram } from '../contract/index.ts';
import {
  A6_MAX_ATTEMPTS,
  type CallState,
  type Cancel,
  type Clock,
  type Operation,
  type Outcome,
  type Pipeline,
  pipeline,
} from '../library/index.ts';
import {
  ArrivalSchedule,
  addBalancer,
  arrivalRatePerMs,
  buildPipeline,
  grpcServiceConfig,
  hedgerOf,
  SINGLE_REPLICA,
  warmupCalls,
} from '../model/index.ts';
import { GRPC_SERVICE } from '../runtime/index.ts';
import { AttemptFailedError } from './errors.ts';
import { createGrpcTransport } from './grpc-transport.ts';
import { createTransport, type Transport, type TransportOptions } from './http-transport.ts';
import type { ResolvedOptions } from './options.ts';
import { createReplicaTransport, type ReplicaTransport } from './replica-transport.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';
import type { LoadProgress } from './status.ts';
import { InflightTimeline } from './timeline.ts';

/** Where a measured call's CSV line goes (the stream recorder), if anywhere. */
export interface LineSink {
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
    this.ratePerMs = arrivalRatePerMs(o.load, o.model, R);
    this.intended = new Float64Array(this.calls);
    this.dispatchAt = new Float64Array(this.calls).fill(Number.NaN);
    const g = o.config.grpcHedging;
    this.attemptStride = o.config.hedge
      ? (o.config.hedge.maxAttempts ?? 2)
      : g
        ? Math.min(g.maxAttempts, A6_MAX_ATTEMPTS)
        : 1;
    this.served = g === undefined ? null : new Uint8Array(this.calls);
    this.writtenAt = new Float64Array(this.calls * this.attemptStride).fill(Number.NaN);
    this.finished = new Uint8Array(this.calls);
    this.overhead = o.serverTiming ? new Float64Array(this.calls) : null;
    const schedule = new ArrivalSchedule(o.seed, this.ratePerMs, this.calls);
    for (let i = 0; i < this.calls; i++) this.intended[i] = schedule.at(i);
    this.maxMs = (o.maxSeconds ?? (this.intended[this.calls - 1] * 3) / 1000 + 30) * 1000;
    const common = {
      serverTiming: o.serverTiming,
      now: () => clock.now(),
      onWritten: (call: number, attempt: number, at: number) => {
        if (attempt <= this.attemptStride)
          this.writtenAt[call * this.attemptStride + attempt - 1] = at - this.t0;
      },
      onFailed: (reason: string) => {
        this.attemptFailures[reason] = (this.attemptFailures[reason] ?? 0) + 1;
      },
    } satisfies Partial<TransportOptions>;
    if (o.transport === 'grpc') {
      this.replicas = null;
      this.transport = createGrpcTransport({
        ...common,
        address: o.grpcTarget!,
        // grpc-js hedges by itself from the channel's service config; no hedgebench policy runs.
        ...(g === undefined
          ? {}
          : { serviceConfig: grpcServiceConfig(GRPC_SERVICE, g, o.config.retryThrottling, 'Work') }),
        onServed: (call, attempt) => {
          if (this.served !== null) this.served[call] = attempt;
        },
      });
    } else {
      const parts = [o.target, ...o.replicaTargets].map((target) =>
        createTransport({
          ...common,
          target,
          path: o.path,
          // Never fewer connections than attempts allowed in flight: undici then never queues (transport.ts).
          connections: o.maxInflight,
        }),
      );
      this.replicas = R > 1 ? createReplicaTransport(parts) : null;
      this.transport = this.replicas ?? parts[0];
    }
    // The balancer picks each attempt's replica with the simulator's draws for this seed (model/replicas.ts).
    this.pipe =
      R > 1
        ? addBalancer(
            this.newPipeline(),
            {
              ...SINGLE_REPLICA,
              replicas: R,
              balancer: o.balancer ?? 'random',
              hedgeTo: o.hedgeTo ?? 'other',
            },
            o.seed,
          )
        : this.newPipeline();
    const replicas = this.replicas;
    const transport = this.transport;
    this.runCall =
      replicas === null
        ? this.pipe.compose<number>((cs, attempt, done) => transport.send(cs.call, attempt, done))
        : this.pipe.compose<number>((cs, attempt, done) =>
            replicas.sendVia(cs.replicas![attempt], cs.call, attempt, done),
          );
  }

  /**
   * Before t0: `requests` calls through a pipeline of the same configuration (its own budget and limit),
   * `concurrency` at a time, to a side-effect-free route (the target's /health). It opens connections and
   * lets V8 optimise the whole call path: a cold process at 8 000 calls/s fell behind in its first
   * milliseconds, opened thousands of connections to catch up, and never recovered.
   */
  async warmUp(requests: number, concurrency: number, path: string, maxMs = 5_000): Promise<void> {
    if (requests <= 0 || concurrency <= 0) return;
    const pipe = this.newPipeline();
    const transport = this.transport;
    const call = pipe.compose<number>((_cs, _attempt, done) => transport.sendTo(path, done));
    const cancels = new Map<number, Cancel>();
    let next = 0;
    let running = 0;
    let over = false;
    await new Promise<void>((resolve) => {
      const finish = (): void => {
        if (over) return;
        over = true;
        clearTimeout(deadline);
        for (const cancel of cancels.values()) cancel();
        cancels.clear();
        resolve();
      };
      // Bounded: a target that accepts connections but never answers must not hold the point back.
      const deadline = setTimeout(finish, maxMs);
      const launch = (): void => {
        while (!over && running < concurrency && next < requests && this.stopReason === null) {
          const i = next++;
          running++;
          let returned = false;
          let doneEarly = false;
          const cancel = call(pipe.newCall(i), 1, () => {
            running--;
            cancels.delete(i);
            if (!returned) doneEarly = true;
            queueMicrotask(launch); // not a recursive call: a refused call answers synchronously
          });
          returned = true;
          if (!doneEarly) cancels.set(i, cancel);
        }
        if (running === 0 && (next >= requests || this.stopReason !== null)) finish();
      };
      launch();
    });
  }

  // A plain pipeline when grpc-js hedges (the channel does it), else the configuration's policies.
  private newPipeline(): Pipeline {
    return hedgerOf(this.o.config) === 'grpc-js'
      ? pipeline(this.clock)
      : buildPipeline(this.o.config, this.clock);
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
      this.onTick?.(p);
    }, this.o.statusIntervalMs);
    if (this.stopReason !== null) this.end();
    else this.scheduler.start();
    return ended.then(() => {
      clearTimeout(wall);
      clearInterval(tick);
    });
  }

  /** Called with every progress sample (the status hash writer hooks in here). */
  onTick: ((p: LoadProgress) => void) | null = null;

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
      this.collapseReason = `attempts in flight reached the cap ${this.o.maxInflight} at t=${(this.dispatchAt[i] / 1000).toFixed(3)} s (call ${i} of ${this.calls})`;
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
      this.sink?.add(
        callLine(i, this.intended[i], lag, latency, outcome, cs.attempts, cs.skipped, w, winnerWritten),
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
      });
    }
    if (this.sendingEnded && this.inflightCalls.size === 0) this.end();
  }
}
