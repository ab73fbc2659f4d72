// createTargetServer: the target server as a value tests and main.ts both use — an express app around the
// model's worker pool (in its own thread by default, or on the event loop), listening on one host only,
// with an orderly close.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Cancellation, ModelParams } from '../model/index.ts';
import pkg from '../package.json' with { type: 'json' };
import { connectRedis, redactUrl, SystemClock, type SystemClockOptions } from '../runtime/index.ts';
import type { AttemptPool, PoolMode } from './attempt-pool.ts';
import { applyPatch, defaultConfig, parseConfigPatch, type RecordTarget } from './config.ts';
import { TargetOptionsError } from './errors.ts';
import { createApp } from './express-routes.ts';
import { type GrpcListener, listenGrpc } from './grpc-route.ts';
import { LoopPool } from './loop-pool.ts';
import { type MainLoopStall, startMainLoopStall } from './main-loop-stall.ts';
import { createTargetMetrics } from './metrics.ts';
import { isPeerCancelRequest, servePeerCancel } from './peer-cancel-route.ts';
import { PoolThread } from './pool-thread.ts';
import { Target } from './target-service.ts';
import type { TargetStats } from './target-stats.ts';
import { throttledLog } from './throttled-log.ts';
import { tokenCheck } from './token.ts';
import { isWorkRequest, serveWork } from './work-route.ts';

/** A connection must deliver its request headers within this, ms (else 408 and close). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A connection must deliver its whole request within this, ms (else 408 and close). */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Options of createTargetServer; every field has a default. */
export interface TargetServerOptions {
  /** Interface to bind (default 127.0.0.1); the server listens nowhere else. */
  host?: string;
  /** Port (default 0 = any free port). */
  port?: number;
  /** Also serve `hedgebench.Target/Work` over gRPC on this port of `host` (0 = any free one); absent = no gRPC. */
  grpcPort?: number;
  workers?: number;
  seed?: number;
  cancellation?: Cancellation;
  /** Partial model parameters over DEFAULT_MODEL. */
  model?: Partial<ModelParams>;
  /** Redis URL for attempt records (redis:// or rediss://); absent = nothing is recorded. */
  redisUrl?: string;
  /** The point to record from the start (usually set later with PUT /config). */
  record?: RecordTarget;
  /**
   * Bearer token for PUT /config, POST /reset and POST /peer-cancel, and the one this server's own peer cancels
   * carry (the orchestrator gives every target of a run the same); absent = no check, and none sent.
   */
  token?: string;
  /** Options of the SystemClock (records' times; it holds the workers in 'loop' mode). */
  clock?: SystemClockOptions;
  /** Where the worker pool runs (default: env HEDGEBENCH_POOL, else 'thread'). */
  pool?: PoolMode;
  /** 'thread' mode: ask for real-time scheduling of the pool thread (default 'rt'; falls back, logged). */
  poolPriority?: 'rt' | 'normal';
  /** Benchmarks and tests only: stall the main event loop periodically. */
  mainLoopStall?: MainLoopStall;
  /** Where log lines go (default: stderr). Never receives the token. */
  log?: (message: string) => void;
}

/** A started target server. */
export interface TargetServer {
  /** `http://host:port`. */
  readonly url: string;
  /** `host:port` of the gRPC listener, or null when it was not asked for. */
  readonly grpcAddress: string | null;
  readonly app: Express;
  readonly clock: SystemClock;
  /** The worker pool (a PoolThread or a LoopPool, as options.pool chose). */
  readonly pool: AttemptPool;
  stats(): TargetStats;
  /** Stops accepting, ends in-flight work (up to `graceMs`, default 5 s), flushes records, closes Redis. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts a target server and resolves once it listens. */
export async function createTargetServer(options: TargetServerOptions = {}): Promise<TargetServer> {
  const log = options.log ?? ((m: string) => process.stderr.write(`target-server: ${m}\n`));
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TargetOptionsError(
      `port must be a whole number in [0, 65535], got ${port}; 0 picks a free port`,
    );
  }
  const grpcPort = options.grpcPort;
  if (grpcPort !== undefined && (!Number.isInteger(grpcPort) || grpcPort < 0 || grpcPort > 65535)) {
    throw new TargetOptionsError(
      `grpcPort must be a whole number in [0, 65535], got ${grpcPort}; 0 picks a free port`,
    );
  }
  let config = defaultConfig();
  try {
    // The same validation as PUT /config, so a flag and a config body fail with the same words.
    const patch = parseConfigPatch(
      dropUndefined({
        workers: options.workers,
        seed: options.seed,
        cancellation: options.cancellation,
        model: options.model,
        run: options.record?.run,
        slug: options.record?.slug,
      }),
      'server option',
    );
    config = applyPatch(config, patch);
  } catch (err) {
    throw new TargetOptionsError((err as Error).message, { cause: err });
  }

  let redis: Redis | null = null;
  if (options.redisUrl !== undefined) {
    const redisLog = throttledLog(log);
    const label = redactUrl(options.redisUrl);
    redis = await connectRedis(options.redisUrl, { onError: (m) => redisLog(`redis ${label}: ${m}`) });
  }
  const mode = options.pool ?? (process.env.HEDGEBENCH_POOL as PoolMode | undefined) ?? 'thread';
  if (mode !== 'thread' && mode !== 'loop') {
    throw new TargetOptionsError(
      `pool (or HEDGEBENCH_POOL) must be 'thread' or 'loop', got ${JSON.stringify(mode)}; 'thread' holds workers off the event loop`,
    );
  }
  const priority = options.poolPriority ?? 'rt';
  if (priority !== 'rt' && priority !== 'normal') {
    throw new TargetOptionsError(`poolPriority must be 'rt' or 'normal', got ${JSON.stringify(priority)}`);
  }
  const clock = new SystemClock(options.clock);
  const poolOptions = { workers: config.workers, cancellation: config.cancellation };
  let pool: AttemptPool;
  try {
    pool =
      mode === 'thread'
        ? await PoolThread.start({ ...poolOptions, priority, log })
        : new LoopPool(clock, poolOptions);
  } catch (err) {
    redis?.disconnect();
    await clock.close();
    throw err;
  }
  const stopStall = options.mainLoopStall ? startMainLoopStall(options.mainLoopStall) : null;
  const target = new Target(clock, config, pkg.version, redis, log, pool, options.token ?? null);
  const metrics = createTargetMetrics(() => target.stats());
  target.metrics = metrics;
  const app = createApp(target, metrics, options.token ?? null);
  const authorized = tokenCheck(options.token ?? null);

  const server: Server = createServer(
    {
      // The load generator keeps its connections open for a whole point.
      keepAliveTimeout: 65_000,
      // A client that sends no request, or dribbles its headers (slowloris), gets 408 and is closed after
      // 10 s; a request must be fully received within 15 s. Both clocks stop once the request is in, so a
      // /work reply that waits long in the queue is not cut. Checked every second, not every 30.
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
    },
    // The load's route and a tied point's peer cancels skip express (work-route.ts says why); every other route is
    // the express app.
    (req, res) => {
      if (isWorkRequest(req)) serveWork(target, req, res);
      else if (isPeerCancelRequest(req)) servePeerCancel(target, authorized, req, res);
      else app(req, res);
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let grpc: GrpcListener | null = null;
  if (grpcPort !== undefined) {
    try {
      grpc = await listenGrpc(target, host, grpcPort);
    } catch (err) {
      server.close();
      throw new TargetOptionsError(
        `the gRPC port ${host}:${grpcPort} cannot be opened: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;

  let closing: Promise<void> | null = null;
  return {
    url,
    grpcAddress: grpc?.address ?? null,
    app,
    clock,
    pool,
    stats: () => target.stats(),
    close(closeOptions = {}) {
      closing ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        const graceMs = closeOptions.graceMs ?? 5_000;
        const graceEnd = Date.now() + graceMs;
        const grpcClosed = grpc?.close(graceMs);
        while (target.pool.inFlight > 0 && Date.now() < graceEnd) await new Promise((r) => setTimeout(r, 10));
        server.closeAllConnections();
        await stopped;
        await grpcClosed;
        await target.closeRecorder();
        await target.close();
        redis?.disconnect();
        stopStall?.();
        await pool.close();
        await clock.close();
      })();
      return closing;
    },
  };
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
