// Simulates one point: open-loop Poisson arrivals on a ManualClock, each call through the library's own
// pipeline for the point's configuration, each attempt on the model WorkerPool. With `clients: K` the
// calls are split by index (call i → client i mod K) across K pipelines, each with its own policy state
// (hedge budget, adaptive limit), all on the one pool: the same arrivals and draws as with one client. Returns the points.csv row
// plus the evidence behind its collapse verdict.

import { detectCollapse, emptySimCalls, pointKey, RowBuilder, type SimCalls } from '../contract/index.ts';
import {
  type CallState,
  ManualClock,
  type Operation,
  type Outcome,
  type Pipeline,
} from '../library/index.ts';
import {
  ArrivalSchedule,
  addBalancer,
  buildPipeline,
  checkTiedReplicas,
  clientOfCall,
  countsHedgesOnError,
  dilatePoint,
  dilateTransport,
  modelMs,
  type Perturbation,
  type Point,
  type PoolStats,
  peerCancelCopies,
  perturbedCancellation,
  perturbedConfig,
  perturbedModel,
  pointClients,
  type ReplicaSetup,
  replicaSetupOf,
  timeScaleOf,
  validateTransport,
  warmupCalls,
} from '../model/index.ts';
import { SimPointError } from './errors.ts';
import { ReplicaPools } from './replica-pools.ts';
import type { RunPointOptions, SimResult } from './run-point-options.ts';
import { SimTransport } from './sim-transport.ts';

/** The point as a perturbed target and load generator run it (its schedule is set by the point's own model). */
function perturbedPoint(p: Point, q: Perturbation): Point {
  return {
    ...p,
    model: perturbedModel(p.model, q),
    config: perturbedConfig(p.config, q),
    cancellation: perturbedCancellation(p.cancellation, q),
  };
}

/**
 * Default memory guard: 50 000 attempts in flight. With 16 workers that is a queue of ~45 s of work — long
 * past any doubt about collapse — and it keeps a collapsing point's state to a few tens of MB.
 */
const DEFAULT_MAX_IN_FLIGHT = 50_000;

/** Most timeline samples kept per point (memory stays flat for long points). */
const TIMELINE_CAP = 1 << 17;

/** Simulates one point to the end; deterministic for the point (same input, same result). */
export function runPoint(point: Point, options: RunPointOptions = {}): SimResult {
  // A bad transport is the caller's input, refused before any work (and not wrapped as a simulation failure).
  if (options.transport !== undefined) validateTransport(options.transport);
  try {
    return new PointSimulation(point, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, options).run();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    throw new SimPointError(
      `simulating point "${pointKey(point)}" failed: ${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`,
      { cause: err },
    );
  }
}

// The state of one simulation; arrivals reuse one bound callback, so the only per-call closure is `done`.
class PointSimulation {
  private readonly clock = new ManualClock();
  private readonly pool: ReplicaPools;
  private readonly setup: ReplicaSetup;
  private readonly transport: SimTransport;
  /** One pipeline per client; `calls[c]` is client c's composed call. */
  private readonly pipelines: Pipeline[];
  private readonly calls: Operation<void>[];
  private readonly schedule: ArrivalSchedule;
  private readonly builder: RowBuilder;
  private readonly warm: number;
  private readonly tl: { length: number; tMs: Float64Array; queue: Float64Array; inFlight: Float64Array };
  private readonly stride: number;
  private next = 0;
  private truncated = false;
  private lastMeasuredIntended = Number.NaN;
  private readonly onCall: RunPointOptions['onCall'];
  private readonly records: SimCalls | undefined;
  /** The point as the clock runs it (model/time-scale.ts); results are read back in model time (÷ k). */
  private readonly point: Point;
  private readonly k: number;

  constructor(
    modelPoint: Point,
    private readonly maxInFlight: number,
    options: RunPointOptions,
  ) {
    this.k = timeScaleOf(modelPoint);
    const p = dilatePoint(modelPoint);
    this.point = p;
    this.warm = warmupCalls(p);
    this.onCall = options.onCall;
    this.setup = replicaSetupOf(p.dims);
    const R = this.setup.replicas;
    checkTiedReplicas(p.config, R);
    // What serves the calls: the point's own service, or the one a perturbation makes of it; the schedule,
    // the row and the collapse criterion stay the point's.
    const served =
      options.perturb === undefined ? p : dilatePoint(perturbedPoint(modelPoint, options.perturb));
    this.pool = new ReplicaPools(this.clock, R, served.model.workers, served.cancellation);
    this.transport = new SimTransport(
      this.pool.pools,
      served.model,
      p.seed,
      this.warm,
      options.onAttempt,
      this.setup,
      options.transport === undefined ? undefined : dilateTransport(options.transport, this.k),
      peerCancelCopies(served.config),
    );
    // Each client has its own policies (budget, limit, balancer state); they share the service.
    this.pipelines = Array.from({ length: pointClients(p) }, () =>
      addBalancer(buildPipeline(served.config, this.clock), this.setup, p.seed),
    );
    this.calls = this.pipelines.map((pl) => pl.compose(this.transport.op));
    this.schedule = ArrivalSchedule.forPoint(p);
    this.builder = new RowBuilder({
      config: p.config.name,
      load: p.load,
      cancellation: p.cancellation,
      seed: p.seed,
      source: options.transport === undefined ? 'sim' : 'sim+net',
      calls: p.calls,
      workers: p.model.workers * R,
      dims: p.dims,
      ...(countsHedgesOnError(p.config, p.model) ? { countsHedgesOnError: true } : {}),
    });
    const n = Math.max(0, p.calls - this.warm);
    if (options.callRecords === true) {
      this.records = emptySimCalls(n);
      this.transport.busyByCall = this.records.busyMs;
    }
    // Every measured arrival is sampled up to TIMELINE_CAP samples; beyond, every stride-th one.
    this.stride = Math.max(1, Math.ceil(n / TIMELINE_CAP));
    const cap = Math.ceil(n / this.stride);
    this.tl = {
      length: 0,
      tMs: new Float64Array(cap),
      queue: new Float64Array(cap),
      inFlight: new Float64Array(cap),
    };
  }

  run(): SimResult {
    const p = this.point;
    let events = 0;
    if (p.calls > 0) {
      this.clock.schedule(this.arrive, this.schedule.at(0));
      events = this.clock.runAll();
    }
    const first = this.warm < this.next ? modelMs(this.schedule.at(this.warm), this.k) : Number.NaN;
    const last = this.lastMeasuredIntended;
    const window = { startMs: first, endMs: last };
    let collapse = detectCollapse(this.tl, window, p.model.workers * this.setup.replicas);
    if (this.truncated) {
      collapse = {
        ...collapse,
        collapsed: true,
        reason: `more than ${this.maxInFlight} attempts in flight at call ${this.next}: arrivals stopped (memory guard); ${collapse.reason}`,
      };
    }
    const spanMs = Number.isFinite(first) && Number.isFinite(last) ? last - first : 0;
    const t = this.transport;
    const extraServiceShare =
      t.busyMeasuredMs > 0 ? Math.max(0, t.busyMeasuredMs - t.winnerBusyMeasuredMs) / t.busyMeasuredMs : null;
    const built = this.builder.finish({
      busyMs: modelMs(t.busyMeasuredMs, this.k),
      spanMs,
      collapsed: collapse.collapsed,
      sendLagP99Ms: null,
      valid: true,
    });
    // Only a tied point's row carries the extra work, so a file without one keeps its columns (contract/points-csv.ts).
    const row = p.config.tied === undefined ? built : { ...built, extra_service_share: extraServiceShare };
    return {
      key: pointKey(p),
      row,
      collapse,
      truncated: this.truncated,
      arrived: this.next,
      pool: this.modelStats(this.pool.stats()),
      ...(this.setup.replicas > 1 ? { replicas: this.replicaFigures(spanMs) } : {}),
      simulatedMs: modelMs(this.clock.now(), this.k),
      events,
      meanWaitMs:
        this.transport.startedMeasured > 0
          ? modelMs(this.transport.waitMeasuredMs / this.transport.startedMeasured, this.k)
          : Number.NaN,
      startedMeasured: this.transport.startedMeasured,
      extraServiceShare,
      ...(t.ties === undefined ? {} : { tied: { ...t.ties.counts } }),
      ...(this.records === undefined ? {} : { calls: this.finishRecords(this.records) }),
    };
  }

  // The records of the calls that arrived (a truncated point has fewer), busy time in model ms.
  private finishRecords(r: SimCalls): SimCalls {
    const n = Math.max(0, Math.min(r.n, this.next - this.warm));
    for (let j = 0; j < n; j++) r.busyMs[j] = modelMs(r.busyMs[j], this.k);
    if (n === r.n) return r;
    return {
      n,
      call: r.call.slice(0, n),
      latencyMs: r.latencyMs.slice(0, n),
      outcome: r.outcome.slice(0, n),
      attempts: r.attempts.slice(0, n),
      skipped: r.skipped.slice(0, n),
      winner: r.winner.slice(0, n),
      busyMs: r.busyMs.slice(0, n),
    };
  }

  // The pool's times in model milliseconds, like every figure of the result.
  private modelStats(s: PoolStats): PoolStats {
    return { ...s, busyMs: modelMs(s.busyMs, this.k), queueAreaMs: modelMs(s.queueAreaMs, this.k) };
  }

  private replicaFigures(spanMs: number): { pool: PoolStats; utilization: number | null }[] {
    const busy = this.transport.busyByReplica;
    return this.pool.replicaStats().map((pool, r) => ({
      pool: this.modelStats(pool),
      utilization: spanMs > 0 ? modelMs(busy[r], this.k) / (this.point.model.workers * spanMs) : null,
    }));
  }

  // Call `next` arrives now: sample the service (arrivals see time averages), start the call, book the next.
  private readonly arrive = (): void => {
    const i = this.next++;
    const pool = this.pool;
    if (i >= this.warm) {
      const t = modelMs(this.schedule.at(i), this.k);
      this.lastMeasuredIntended = t;
      if ((i - this.warm) % this.stride === 0) {
        const tl = this.tl;
        const k = tl.length++;
        tl.tMs[k] = t;
        tl.queue[k] = pool.queueLength;
        tl.inFlight[k] = pool.inFlight;
      }
    }
    const c = clientOfCall(i, this.pipelines.length);
    const state = this.pipelines[c].newCall(i);
    this.calls[c](state, 1, (o) => this.finish(state, o));
    if (this.next >= this.point.calls) return;
    if (pool.inFlight > this.maxInFlight) {
      this.truncated = true;
      return;
    }
    this.clock.schedule(this.arrive, this.schedule.at(this.next) - this.clock.now());
  };

  private finish(state: CallState, o: Outcome<void>): void {
    const i = state.call;
    this.transport.ties?.forget(i);
    if (i < this.warm) return;
    const latency = modelMs(this.clock.now() - this.schedule.at(i), this.k);
    const outcome = o.ok ? 'ok' : state.rejected ? 'rejected' : 'failed';
    this.builder.addCall(latency, outcome, state.attempts, state.skipped, state.hedgedOnError);
    const r = this.records;
    if (r !== undefined) {
      const j = i - this.warm;
      r.call[j] = i;
      r.latencyMs[j] = latency;
      r.outcome[j] = o.ok ? 0 : state.rejected ? 1 : 2;
      r.attempts[j] = state.attempts;
      r.skipped[j] = state.skipped;
      r.winner[j] = state.winner;
    }
    this.onCall?.(state, latency);
  }
}
