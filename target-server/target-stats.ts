// The shape of GET /stats: the server's state, its counters since the last reset, and the hold-time error.

import type { StreamRecorderStats } from '../runtime/index.ts';
import type { PoolMode } from './attempt-pool.ts';
import type { ServerConfig } from './config.ts';
import type { HoldErrorSummary } from './hold-time.ts';
import type { PeerCancelStats } from './tied-copies.ts';

/** GET /stats. Counters and utilisation are since the last POST /reset (or start). */
export interface TargetStats {
  version: string;
  config: ServerConfig;
  queueLength: number;
  busyWorkers: number;
  /** Queued + in service (control routes answer 409 while this is > 0). */
  inFlight: number;
  sinceResetMs: number;
  /**
   * The epoch ms at which this server's clock (its attempts' times) read 0: a tied point's records of several
   * servers are set on one clock with it (analysis/judge/tie-replay.ts).
   */
  clockEpochMs: number;
  /** Σ worker busy time of ended attempts / (workers × time since reset). */
  utilisation: number;
  meanQueueLength: number;
  maxQueueLength: number;
  submitted: number;
  served: number;
  cancelledQueued: number;
  cancelledInService: number;
  /** Client aborts of attempts still queued or in service, in either mode (in `ignore` they change nothing). */
  cancelRequests: number;
  badRequests: number;
  /**
   * Where the worker pool runs, at which scheduling priority ('loop' = the main event loop's), and attempts
   * refused with 503 HB_POOL_BACKLOG since reset (the pool thread stalled).
   */
  pool: { mode: PoolMode; priority: string; rejected: number };
  /** Actual − intended hold time of served attempts, ms. */
  holdErrorMs: HoldErrorSummary;
  /** Worker released → response written of answered attempts since reset, ms: the wait for the event loop. */
  responseDelayMs: HoldErrorSummary;
  /**
   * How late the main event loop ran a 1 ms timer since the first /work after reset, ms (perf_hooks
   * monitorEventLoopDelay): how long a ready response could wait to be written.
   */
  eventLoopDelayMs: { count: number; p50: number | null; p99: number | null; max: number | null };
  /** CPU this server process used since reset (ms), and as cores (1 = one core busy all the time). */
  cpu: { userMs: number; systemMs: number; cores: number };
  /** Share of time the event loop was busy since reset (0..1); near 1 = saturated. */
  eventLoopUtilisation: number;
  /**
   * GET /work requests by the client's address since the server started (never reset, so a late look still
   * shows every client; at most CLIENT_ADDRESSES_MAX addresses, the rest counted under "other").
   */
  clients: Record<string, number>;
  /** Tied requests: the peer cancels this server sent and received since reset (zeros while not tied). */
  peerCancel: PeerCancelStats;
  /** Attempt records of the current point, or null when nothing is recorded. */
  recorder: (StreamRecorderStats & { key: string }) | null;
}
