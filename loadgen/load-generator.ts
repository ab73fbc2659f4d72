// createLoadGenerator: one open-loop Poisson point against the target, every call through the library's
// Pipeline on the real clock. Latency runs from the INTENDED start (no coordinated omission); every
// measured call becomes one CSV line in the point's Redis stream; the point checks its own sends.

import type { Redis } from 'ioredis';
import { formatSummary, redisKeys } from '../contract/index.ts';
import { type Clock, ConfigError, ManualClock } from '../library/index.ts';
import { buildPipeline } from '../model/index.ts';
import {
  connectRedis,
  createStreamRecorder,
  redactUrl,
  type StreamRecorder,
  SystemClock,
  testHold,
} from '../runtime/index.ts';
import { LoadgenConfigError, LoadgenError, RedisUnusableError } from './errors.ts';
import { parseGrpcAddress } from './grpc-transport.ts';
import { parseTarget } from './http-transport.ts';
import {
  checkTargetHost,
  type LoadGeneratorOptions,
  type ResolvedOptions,
  resolveOptions,
} from './loadgen-options.ts';
import { type ClockReading, pointClock, readClock } from './point-clock.ts';
import { type LoadResult, pointResult, type RecorderCounters } from './point-result.ts';
import { PointRun } from './point-run.ts';
import { startBarrier } from './start-barrier.ts';
import { StatusWriter } from './status-writer.ts';

const formatHostPort = (a: { host: string; port: number }): string =>
  a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;

/** A prepared point: run it once; stop it from outside (SIGTERM) at any time. */
interface LoadGenerator {
  /** Runs the point; resolves with its summary (state `failed` when interrupted or records were lost). */
  run(): Promise<LoadResult>;
  /** Stops sending, abandons calls in flight, flushes records; run() then resolves with state `failed`. */
  stop(reason: string): void;
}

/** Validates the options (throws LoadgenConfigError naming the option) and prepares a point. */
export function createLoadGenerator(options: LoadGeneratorOptions): LoadGenerator {
  const o = resolveOptions(options);
  for (const t of [o.target, ...o.replicaTargets]) checkTargetHost(parseTarget(t), o.allowAnyTarget);
  if (o.grpcTarget !== undefined) {
    checkTargetHost(new URL(`http://${formatHostPort(parseGrpcAddress(o.grpcTarget))}`), o.allowAnyTarget);
  }
  try {
    // Validation only (the library's own checks); the real pipeline is built on the real clock in run().
    buildPipeline(o.config, new ManualClock());
  } catch (err) {
    if (err instanceof ConfigError) throw new LoadgenConfigError(`--config: ${err.message}`, { cause: err });
    throw err;
  }
  let started = false;
  let stopReason: string | null = null;
  let active: PointRun | null = null;
  return {
    async run() {
      if (started)
        throw new LoadgenError('HB_ALREADY_RUN', 'run() was already called; make a new generator per point');
      started = true;
      // Only in tests (runtime/test-hold.ts): a held generator does nothing until it is stopped.
      await testHold(() => stopReason !== null);
      // A clock made here is closed here (its waker thread must not keep the process alive).
      const clock = o.clock ?? new SystemClock({ waker: o.timer, leadMs: o.timerLeadMs });
      try {
        const run = new PointRun(o, clock);
        active = run;
        if (stopReason !== null) run.stop(stopReason);
        return await runPoint(run, o, clock);
      } finally {
        if (o.clock === undefined) await clock.close();
      }
    },
    stop(reason) {
      stopReason ??= reason;
      active?.stop(reason);
    },
  };
}

async function runPoint(run: PointRun, o: ResolvedOptions, clock: Clock): Promise<LoadResult> {
  const log = o.log ?? (() => {});
  let redis: Redis | null = o.redis ?? null;
  const ownRedis = o.redis === undefined && o.redisUrl !== undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await run.transport.probe();
    let recorder: StreamRecorder | null = null;
    let status: StatusWriter | null = null;
    if (o.run && o.slug && (redis !== null || o.redisUrl !== undefined)) {
      const keys = redisKeys(o.run, o.slug);
      redis ??= await connect(o.redisUrl!, log);
      // Every client checks before it says it is ready, and none writes a record before all are: a
      // record found here is an earlier try's, never another client's.
      const existing = await redis.xlen(keys.calls);
      if (existing > 0) {
        throw new RedisUnusableError(
          `${keys.calls} already holds ${existing} records of an earlier try; drain or delete it before running the point again`,
        );
      }
      recorder = createStreamRecorder(redis, keys.calls, { onError: log });
      status = new StatusWriter(redis, keys.clientStatus(o.client, o.clients));
      await status.final(run.progress('running'), { started_ms: String(Date.now()), error: '', summary: '' });
      const st = status;
      run.sink = recorder;
      // One heartbeat from here to the final status, through every phase (the clock exchange, up to 2 s; the
      // warm-up, up to 5 s; the start barrier; sending; closing thousands of connections after a collapse):
      // the orchestrator judges a generator whose status has not changed for 8 s hung.
      heartbeat = setInterval(() => st.update(run.progress('running')), o.statusIntervalMs);
    }

    // The offset is read on the same clock as the calls' times, before the warm-up loads either side.
    const measureClock = (): Promise<ClockReading> =>
      readClock(o.target, () => clock.now(), o.clockSamples, o.clockTimeoutMs);
    const clockStart = o.clockSamples > 0 ? await measureClock() : null;
    await run.warmUp(o.warmRequests, Math.min(o.warmConnections, o.maxInflight), o.warmPath, o.warmTimeoutMs);
    if (o.clients > 1 && redis !== null && o.run && o.slug) {
      const keys = redisKeys(o.run, o.slug);
      await startBarrier({
        redis,
        readyKey: keys.ready,
        goKey: keys.go,
        clients: o.clients,
        timeoutMs: o.barrierTimeoutMs,
        stopped: () => run.stopReason !== null,
      });
    }
    const cpu0 = process.cpuUsage();
    await run.start();
    const durationMs = run.progress('done').t * 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuCores = durationMs > 0 ? (cpu.user + cpu.system) / 1000 / durationMs : 0;
    // A stopped point ends now (it failed anyway), and so does a collapsed one (no latency of it is compared,
    // and its target, still draining the queue, let the exchange wait out its timeout: 5.8 s of a wind-down
    // of 8.5 s after a collapse at the cap at ×10, for a reading nothing uses).
    const clockEnd =
      clockStart !== null && run.stopReason === null && run.collapseReason === null
        ? await measureClock()
        : null;
    await run.transport.destroy().catch(() => {});

    let counters: RecorderCounters = null;
    let error = run.stopReason;
    if (recorder !== null) {
      const r = recorder;
      // Records wait out a Redis outage, but not forever: whatever is still buffered then counts as lost.
      await Promise.race([r.close(), new Promise((res) => setTimeout(res, o.flushTimeoutMs).unref())]);
      const s = r.stats();
      counters = { written: s.written, dropped: s.dropped + s.buffered, failedBatches: s.failedBatches };
      if (counters.dropped > 0) error ??= `${counters.dropped} call records were not written to Redis`;
    }
    const clockInfo = clockStart === null ? null : pointClock(clockStart, clockEnd, run.t0, o.clockDriftMs);
    const result = pointResult(run, o, durationMs, cpuCores, counters, error, clockInfo);
    clearInterval(heartbeat); // before the final write, which no later update may overwrite
    await status?.final(run.progress(result.state), {
      error: error ?? '',
      ended_ms: String(Date.now()),
      summary: formatSummary(result),
    });
    return result;
  } finally {
    clearInterval(heartbeat);
    await run.transport.destroy().catch(() => {});
    if (ownRedis) redis?.disconnect();
  }
}

async function connect(url: string, log: (m: string) => void): Promise<Redis> {
  try {
    return await connectRedis(url, { timeoutMs: 5_000, onError: log });
  } catch (err) {
    throw new RedisUnusableError(`Redis at ${redactUrl(url)}: ${(err as Error).message}`, { cause: err });
  }
}
