// Options of one load-generator point, their defaults and their validation (errors name the option).

import type { Redis } from 'ioredis';
import type { CallRecord } from '../contract/index.ts';
import {
  BALANCERS,
  type BalancerName,
  HEDGE_TARGETS,
  type HedgeTarget,
  MAX_REPLICAS,
} from '../library/index.ts';
import {
  DEFAULT_MODEL,
  dilateConfig,
  dilateModel,
  type FieldLabels,
  type HedgeConfig,
  MAX_CLIENTS,
  MatrixInvalidError,
  type ModelParams,
  parseMatrix,
  wallMs,
} from '../model/index.ts';
import { CLOCK_SAMPLES, CLOCK_TIMEOUT_MS, isLocalTargetHost, type SystemClock } from '../runtime/index.ts';
import { LoadgenConfigError } from './errors.ts';
import type { LoadProgress } from './status.ts';

/** Everything one point needs; only target, config, load, calls and seed are required. */
export interface LoadGeneratorOptions {
  /** `http://host:port` of the target server (replica 0 when there are several). */
  target: string;
  /** The targets of replicas 1..R−1, after `target` (default none: one replica). */
  replicaTargets?: string[];
  /** How the client picks each attempt's replica (default random; only with replicaTargets). */
  balancer?: BalancerName;
  /** Where hedges go: `other` replicas (default) or `any` (only with replicaTargets). */
  hedgeTo?: HedgeTarget;
  /** How attempts travel (default 'http1'); 'grpc' sends them to `grpcTarget`. */
  transport?: 'http1' | 'grpc';
  /** `host:port` of the target's gRPC listener; required with transport 'grpc'. */
  grpcTarget?: string;
  config: HedgeConfig;
  /** ρ = λ·E[S]/workers; the arrival rate follows from the model. */
  load: number;
  /** Calls in the point, warm-up included. */
  calls: number;
  seed: number;
  /** Fraction of the calls not measured (default 0.1). */
  warmupFraction?: number;
  /** The service model the load refers to: any subset of its fields over DEFAULT_MODEL. */
  model?: Partial<ModelParams>;
  /** Redis for records and status: a URL (connected and closed here) or a client the caller owns. */
  redisUrl?: string;
  redis?: Redis;
  /** Run id and point slug naming the Redis keys; required with Redis. */
  run?: string;
  slug?: string;
  /**
   * This process is client `client` of `clients` (default 0 of 1): it sends only the calls i with
   * i mod clients = client, through its own pipeline (its own budget and limit); the others send the rest.
   */
  client?: number;
  clients?: number;
  /** With clients > 1: how long the clients wait for each other at the start barrier, ms (default 30 000). */
  barrierTimeoutMs?: number;
  /** Cap on attempts in flight (default 20 000); reaching it stops the point as collapsed. */
  maxInflight?: number;
  /** Cap on the point's wall time, s (default: schedule length × 3 + 30). */
  maxSeconds?: number;
  /** Send-lag p99 above this makes the point invalid, model ms (default 1; k wall-clock ms at time scale k). */
  sendLagThresholdMs?: number;
  /**
   * The dilated clock's factor k (model/time-scale.ts; default 1): config, model and the self-check's
   * thresholds are given in model time, and the point runs with every duration × k and every rate ÷ k.
   */
  timeScale?: number;
  /** Parse the server's reply to report client overhead (default false). */
  serverTiming?: boolean;
  /** Work route of the target (default `/work`). */
  path?: string;
  /** Warm-up before t0: calls through the pipeline to `warmPath` (default 2 000; 0 = none), … */
  warmRequests?: number;
  /** … this many at a time, which is also how many connections it opens (default 16). */
  warmConnections?: number;
  /** A side-effect-free route of the target for the warm-up (default `/health`). */
  warmPath?: string;
  /** The warm-up ends after this at the latest, ms (default 5 000). */
  warmTimeoutMs?: number;
  /**
   * GET /clock exchanges per clock-offset measurement, before the warm-up and after the last call (default
   * 32; 0 = no measurement, for a target without /clock). A failed one makes the point invalid.
   */
  clockSamples?: number;
  /** One clock-offset measurement ends within this, ms (default 2 000). */
  clockTimeoutMs?: number;
  /** |offset at the end − offset at the start| above this plus both uncertainties makes the point invalid, ms (default 1). */
  clockDriftMs?: number;
  /** Status hash / progress period, ms (default 250). */
  statusIntervalMs?: number;
  /** How long the final flush of records may wait for Redis, ms (default 30 000). */
  flushTimeoutMs?: number;
  /** Allow targets outside 127.0.0.0/8, ::1, localhost and the lab's 198.18.0.0/15 (default false). */
  allowAnyTarget?: boolean;
  /**
   * How the real clock waits (default: env HEDGEBENCH_TIMER, else 'poll': a coarse setTimeout, then setImmediate polling for the last
   * 2 ms — it costs a core, but kept send-lag p99 ≤ 1 ms up to 10 000+ calls/s in bench/loadgen.ts, where
   * the 'thread' waker's wake-up latency gave 2–3 ms at 2 000–5 000 calls/s and bunched the sends).
   */
  timer?: 'poll' | 'thread';
  /** How long before a deadline polling takes over, ms (default: SystemClock's, 2 for poll, 0 for thread). */
  timerLeadMs?: number;
  /** The real clock (default a new SystemClock with `timer`); an injected clock is the caller's to close. */
  clock?: SystemClock;
  onProgress?: (p: LoadProgress) => void;
  /** Called with every measured call as it completes (tests, embedding); the Redis stream gets the same. */
  onCall?: (record: CallRecord) => void;
  /** Warnings (Redis retries …); default ignored. */
  log?: (message: string) => void;
}

type Optional =
  | 'balancer'
  | 'hedgeTo'
  | 'timerLeadMs'
  | 'redisUrl'
  | 'redis'
  | 'run'
  | 'slug'
  | 'maxSeconds'
  | 'clock'
  | 'onProgress'
  | 'onCall'
  | 'log'
  | 'grpcTarget';

/** Options with every default filled in. */
export type ResolvedOptions = Required<Omit<LoadGeneratorOptions, Optional | 'model'>> &
  Pick<LoadGeneratorOptions, Optional> & { model: ModelParams };

// The one-point matrix below is checked by the matrix's own schema; its messages name the flags.
const FLAG_NAMES: FieldLabels = {
  configs: '--config',
  loads: '--load',
  seeds: '--seed',
  calls: '--calls',
  warmupFraction: '--warmup',
  model: '--model',
  transport: '--transport',
  timeScale: '--time-scale',
};

/** Validates and completes the options; throws LoadgenConfigError naming the option and the fix. */
export function resolveOptions(o: LoadGeneratorOptions): ResolvedOptions {
  const warmupFraction = o.warmupFraction ?? 0.1;
  // The model's own matrix validation checks config, load, calls, seed, warm-up and model in the project's words.
  try {
    parseMatrix(
      {
        name: 'loadgen',
        configs: [o.config],
        loads: [o.load],
        cancellation: ['ignore'],
        seeds: [o.seed],
        calls: o.calls,
        warmupFraction,
        model: o.model,
        calibration: false,
        ...(o.transport === undefined ? {} : { transport: [o.transport] }),
        ...(o.timeScale === undefined ? {} : { timeScale: [o.timeScale] }),
      },
      'the options',
      FLAG_NAMES,
    );
  } catch (err) {
    if (!(err instanceof MatrixInvalidError)) throw err;
    const text = `invalid load generator options:\n  - ${err.issues.join('\n  - ')}`;
    throw new LoadgenConfigError(text, { cause: err });
  }
  const positive = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) {
      throw new LoadgenConfigError(`${name} = ${v} is invalid: must be a number > 0`);
    }
  };
  positive('--max-seconds', o.maxSeconds);
  positive('--send-lag-threshold-ms', o.sendLagThresholdMs);
  positive('statusIntervalMs', o.statusIntervalMs);
  positive('flushTimeoutMs', o.flushTimeoutMs);
  positive('warmTimeoutMs', o.warmTimeoutMs);
  positive('--clock-timeout-ms', o.clockTimeoutMs);
  if (o.clockDriftMs !== undefined && !(Number.isFinite(o.clockDriftMs) && o.clockDriftMs >= 0)) {
    throw new LoadgenConfigError(`--clock-drift-ms = ${o.clockDriftMs} is invalid: must be a number ≥ 0`);
  }
  for (const [name, v, max] of [
    ['warmConnections', o.warmConnections, 1000],
    ['warmRequests', o.warmRequests, 1_000_000],
    ['--clock-samples', o.clockSamples, 1000],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= max)) {
      throw new LoadgenConfigError(`${name} = ${v} is invalid: must be a whole number in 0..${max}`);
    }
  }
  const clients = o.clients ?? 1;
  if (!(Number.isInteger(clients) && clients >= 1 && clients <= MAX_CLIENTS)) {
    throw new LoadgenConfigError(
      `--clients = ${clients} is invalid: must be a whole number in 1..${MAX_CLIENTS} (the load generators sharing the point)`,
    );
  }
  const client = o.client ?? 0;
  if (!(Number.isInteger(client) && client >= 0 && client < clients)) {
    throw new LoadgenConfigError(
      `--client = ${client} is invalid: must be a whole number in 0..${clients - 1} (this process's index among --clients ${clients})`,
    );
  }
  positive('barrierTimeoutMs', o.barrierTimeoutMs);
  const maxInflight = o.maxInflight ?? 20_000;
  if (!Number.isInteger(maxInflight) || maxInflight < 1) {
    throw new LoadgenConfigError(`--max-inflight = ${maxInflight} is invalid: must be a whole number ≥ 1`);
  }
  if (o.timer !== undefined && o.timer !== 'poll' && o.timer !== 'thread') {
    throw new LoadgenConfigError(`--timer = ${JSON.stringify(o.timer)} is invalid: use 'poll' or 'thread'`);
  }
  if (o.timerLeadMs !== undefined && !(Number.isFinite(o.timerLeadMs) && o.timerLeadMs >= 0)) {
    throw new LoadgenConfigError(`--timer-lead-ms = ${o.timerLeadMs} is invalid: must be a number ≥ 0`);
  }
  const replicaTargets = o.replicaTargets ?? [];
  if (!Array.isArray(replicaTargets) || replicaTargets.length + 1 > MAX_REPLICAS) {
    throw new LoadgenConfigError(`--replica-target: give at most ${MAX_REPLICAS - 1} targets after --target`);
  }
  if (o.balancer !== undefined && !BALANCERS.includes(o.balancer)) {
    throw new LoadgenConfigError(
      `--balancer = ${JSON.stringify(o.balancer)} is invalid: use one of ${BALANCERS.join(', ')}`,
    );
  }
  if (o.hedgeTo !== undefined && !HEDGE_TARGETS.includes(o.hedgeTo)) {
    throw new LoadgenConfigError(`--hedge-to = ${JSON.stringify(o.hedgeTo)} is invalid: use other or any`);
  }
  if (o.transport !== undefined && o.transport !== 'http1' && o.transport !== 'grpc') {
    throw new LoadgenConfigError(
      `--transport = ${JSON.stringify(o.transport)} is invalid: use 'http1' or 'grpc'`,
    );
  }
  if (o.transport === 'grpc' && o.grpcTarget === undefined) {
    throw new LoadgenConfigError(
      "--transport grpc needs --grpc-target HOST:PORT (the target's gRPC listener, see its listening line)",
    );
  }
  if (o.transport === 'grpc' && replicaTargets.length > 0) {
    throw new LoadgenConfigError(
      '--replica-target works over HTTP/1.1 only: give the replicas without --transport grpc, or one gRPC target',
    );
  }
  if ((o.redisUrl !== undefined || o.redis !== undefined) && (!o.run || !o.slug)) {
    throw new LoadgenConfigError('--redis needs --run ID and --point SLUG to name the keys; give both');
  }
  // Everything below is in wall-clock time: the point as the clock runs it.
  const k = o.timeScale ?? 1;
  return {
    ...o,
    config: dilateConfig(o.config, k),
    timeScale: k,
    replicaTargets: [...replicaTargets],
    warmupFraction,
    transport: o.transport ?? 'http1',
    model: dilateModel({ ...DEFAULT_MODEL, ...o.model }, k),
    client,
    clients,
    barrierTimeoutMs: o.barrierTimeoutMs ?? 30_000,
    maxInflight,
    sendLagThresholdMs: wallMs(o.sendLagThresholdMs ?? 1, k),
    serverTiming: o.serverTiming ?? false,
    path: o.path ?? '/work',
    warmRequests: o.warmRequests ?? 2000,
    warmConnections: o.warmConnections ?? 16,
    warmPath: o.warmPath ?? '/health',
    warmTimeoutMs: o.warmTimeoutMs ?? 5_000,
    clockSamples: o.clockSamples ?? CLOCK_SAMPLES,
    clockTimeoutMs: o.clockTimeoutMs ?? CLOCK_TIMEOUT_MS,
    clockDriftMs: wallMs(o.clockDriftMs ?? 1, k),
    statusIntervalMs: o.statusIntervalMs ?? 250,
    flushTimeoutMs: o.flushTimeoutMs ?? 30_000,
    allowAnyTarget: o.allowAnyTarget ?? false,
    timer: o.timer ?? envTimer() ?? 'poll',
  };
}

// HEDGEBENCH_TIMER=poll|thread sets every process's SystemClock default (runtime/system-clock.ts); honour it.
function envTimer(): 'poll' | 'thread' | undefined {
  const v = process.env.HEDGEBENCH_TIMER;
  return v === 'poll' || v === 'thread' ? v : undefined;
}

/** Throws unless the target is on loopback or in the lab's 198.18.0.0/15 (or allowAnyTarget is set). */
export function checkTargetHost(url: URL, allowAnyTarget: boolean): void {
  if (allowAnyTarget || isLocalTargetHost(url.hostname)) return;
  throw new LoadgenConfigError(
    `--target host ${url.hostname} is outside loopback (127.0.0.0/8) and the lab (198.18.0.0/15); pass --allow-any-target to load it anyway`,
  );
}
