// Options of one load-generator point: the PointSpec plus this process's wiring, their defaults, and their
// validation (the spec's schema for the point; errors name the option as its flag).

import type { Redis } from 'ioredis';
import { type CallRecord, checkPointSpec, POINT_SPEC_FIELDS, type PointSpec } from '../contract/index.ts';
import { DEFAULT_MODEL, dilateConfig, dilateModel, type ModelParams, wallMs } from '../model/index.ts';
import {
  CLOCK_SAMPLES,
  CLOCK_TIMEOUT_MS,
  isLocalTargetHost,
  openFilesLimit,
  type SystemClock,
} from '../runtime/index.ts';
import { LoadgenConfigError } from './errors.ts';
import { flagOf } from './spec-flags.ts';
import type { LoadProgress } from './status-writer.ts';

/**
 * Everything one point needs: the point itself (PointSpec, contract/point-spec.ts, which documents and checks
 * every field; only target, config, load, calls and seed are required) and this process's own wiring.
 */
export interface LoadGeneratorOptions extends PointSpec {
  /** Redis for records and status: a URL (connected and closed here) or a client the caller owns. */
  redisUrl?: string;
  redis?: Redis;
  /** With clients > 1: how long the clients wait for each other at the start barrier, ms (default 30 000). */
  barrierTimeoutMs?: number;
  /** … this many warm-up calls at a time, which is also how many connections it opens (default 16). */
  warmConnections?: number;
  /** A side-effect-free route of the target for the warm-up (default `/health`). */
  warmPath?: string;
  /** The warm-up ends after this at the latest, ms (default 5 000). */
  warmTimeoutMs?: number;
  /** Status hash / progress period, ms (default 250). */
  statusIntervalMs?: number;
  /** How long the final flush of records may wait for Redis, ms (default 30 000). */
  flushTimeoutMs?: number;
  /**
   * How the real clock waits (default: env HEDGEBENCH_TIMER, else 'poll': a coarse setTimeout, then
   * setImmediate polling for the last 2 ms — it costs a core, but keeps sends on time at rates where the
   * 'thread' waker's wake-up latency makes them late and bunches them; bench/RESULTS.md, "The load
   * generator").
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
  /** This process's open-file limit (default: read from the system; null = unknown, no bound). */
  openFiles?: number | null;
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
  | 'grpcTarget'
  | 'openFiles';

/** Options with every default filled in. */
export type ResolvedOptions = Required<Omit<LoadGeneratorOptions, Optional | 'model'>> &
  Pick<LoadGeneratorOptions, Optional> & { model: ModelParams };

/** Validates and completes the options; throws LoadgenConfigError naming the option and the fix. */
export function resolveOptions(o: LoadGeneratorOptions): ResolvedOptions {
  // The point is checked by its one schema (the matrix's own checks for config, load, calls, seed, model);
  // messages name the flags, which are the spec's fields as a person running loadgen by hand sees them.
  const point = Object.fromEntries(POINT_SPEC_FIELDS.flatMap((f) => (o[f] === undefined ? [] : [[f, o[f]]])));
  const checked = checkPointSpec(point, flagOf);
  if (!checked.ok) {
    throw new LoadgenConfigError(`invalid load generator options:\n  - ${checked.issues.join('\n  - ')}`);
  }
  const spec = checked.spec;
  // The rest is this process's own wiring, checked here.
  const positive = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) {
      throw new LoadgenConfigError(`${name} = ${v} is invalid: must be a number > 0`);
    }
  };
  positive('statusIntervalMs', o.statusIntervalMs);
  positive('flushTimeoutMs', o.flushTimeoutMs);
  positive('warmTimeoutMs', o.warmTimeoutMs);
  positive('barrierTimeoutMs', o.barrierTimeoutMs);
  if (
    o.warmConnections !== undefined &&
    !(Number.isInteger(o.warmConnections) && o.warmConnections >= 0 && o.warmConnections <= 1000)
  ) {
    throw new LoadgenConfigError(
      `warmConnections = ${o.warmConnections} is invalid: must be a whole number in 0..1000`,
    );
  }
  if (o.timer !== undefined && o.timer !== 'poll' && o.timer !== 'thread') {
    throw new LoadgenConfigError(`--timer = ${JSON.stringify(o.timer)} is invalid: use 'poll' or 'thread'`);
  }
  if (o.timerLeadMs !== undefined && !(Number.isFinite(o.timerLeadMs) && o.timerLeadMs >= 0)) {
    throw new LoadgenConfigError(`--timer-lead-ms = ${o.timerLeadMs} is invalid: must be a number ≥ 0`);
  }
  if ((o.redisUrl !== undefined || o.redis !== undefined) && (!spec.run || !spec.slug)) {
    throw new LoadgenConfigError('--redis needs --run ID and --point SLUG to name the keys; give both');
  }
  const files = o.openFiles === undefined ? openFilesLimit() : o.openFiles;
  // Everything below is in wall-clock time: the point as the clock runs it.
  const k = spec.timeScale ?? 1;
  return {
    ...o,
    ...spec,
    config: dilateConfig(spec.config, k),
    timeScale: k,
    replicaTargets: [...(spec.replicaTargets ?? [])],
    warmupFraction: spec.warmupFraction ?? 0.1,
    transport: spec.transport ?? 'http1',
    model: dilateModel({ ...DEFAULT_MODEL, ...spec.model }, k),
    client: spec.client ?? 0,
    clients: spec.clients ?? 1,
    barrierTimeoutMs: o.barrierTimeoutMs ?? 30_000,
    maxInflight: inflightCap(spec.maxInflight, spec.clients ?? 1, files),
    sendLagThresholdMs: wallMs(spec.sendLagThresholdMs ?? 1, k),
    serverTiming: spec.serverTiming ?? false,
    path: spec.path ?? '/work',
    warmRequests: spec.warmRequests ?? 2000,
    warmConnections: o.warmConnections ?? 16,
    warmPath: o.warmPath ?? '/health',
    warmTimeoutMs: o.warmTimeoutMs ?? 5_000,
    clockSamples: spec.clockSamples ?? CLOCK_SAMPLES,
    clockTimeoutMs: spec.clockTimeoutMs ?? CLOCK_TIMEOUT_MS,
    clockDriftMs: wallMs(spec.clockDriftMs ?? 1, k),
    statusIntervalMs: o.statusIntervalMs ?? 250,
    flushTimeoutMs: o.flushTimeoutMs ?? 30_000,
    allowAnyTarget: spec.allowAnyTarget ?? false,
    timer: o.timer ?? envTimer() ?? 'poll',
    openFiles: files,
  };
}

/** Default cap on attempts in flight. */
const MAX_INFLIGHT = 20_000;
/** Files a load generator or target holds besides its connections: Redis, logs, Node's own. */
const FILE_RESERVE = 256;

/**
 * The cap on attempts in flight: the one asked for (default 20 000), but never more connections than the
 * open-file limit leaves, shared by the clients because the target holds all of theirs
 * (runtime/open-files.ts says what happens past it).
 */
export function inflightCap(asked: number | undefined, clients: number, openFiles: number | null): number {
  const cap = asked ?? MAX_INFLIGHT;
  if (openFiles === null) return cap;
  return Math.max(1, Math.min(cap, Math.floor((openFiles - FILE_RESERVE) / clients)));
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
