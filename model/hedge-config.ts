// Hedge configurations: what a point runs through the library's Pipeline, by name or as a user's JSON.

import type { GrpcHedgingOptions, RetryThrottlingOptions } from './grpc-hedging.ts';
import type { TiedOptions } from './tied.ts';

/** Options of the hedge policy as a user writes them (all optional; library defaults otherwise). */
export interface HedgeOptions {
  delayMs?: number;
  maxAttempts?: number;
  /** 0 = no budget (unlimited hedges). */
  budgetPercent?: number;
  budgetMinHedgesPerSecond?: number;
  budgetWindowMs?: number;
}

/** Options of the Gradient2 adaptive limit (all optional; Netflix defaults otherwise). */
export interface AdaptiveLimitOptions {
  initialLimit?: number;
  minLimit?: number;
  maxLimit?: number;
  smoothing?: number;
  rttTolerance?: number;
  longWindow?: number;
  queueSize?: number;
  /** Aggregate samples in windows (default true); false = update on every sample. */
  windowed?: boolean;
  /** Window length, ms (library default 1000); set by the dilated clock (model/time-scale.ts), not by a matrix. */
  windowMs?: number;
  /** Samples under this RTT are ignored, ms (library default 0.1); set by the dilated clock, not by a matrix. */
  minRttMs?: number;
}

/**
 * A named configuration. `hedge` absent = no hedging (plain call). `adaptiveLimit` present = every
 * attempt takes a permit from one Gradient2 limiter, inside the hedge.
 */
export interface HedgeConfig {
  name: string;
  hedge?: HedgeOptions;
  adaptiveLimit?: AdaptiveLimitOptions;
  /** gRPC hedges by itself (gRFC A6; the point's hedger is grpc-js); excludes `hedge` and `adaptiveLimit`. */
  grpcHedging?: GrpcHedgingOptions;
  /** The channel's A6 token bucket; only with `grpcHedging`. */
  retryThrottling?: RetryThrottlingOptions;
  /** Tied requests (model/tied.ts): copies on distinct replicas that cancel each other; excludes `hedge`. */
  tied?: TiedOptions;
}

/** Who hedges a configuration's calls: hedgebench's library, or grpc-js from its service config. */
export type Hedger = 'library' | 'grpc-js';

/** The hedger a configuration names. */
export function hedgerOf(config: HedgeConfig): Hedger {
  return config.grpcHedging === undefined ? 'library' : 'grpc-js';
}

/** The six configurations of the reference study, with the column labels users know. */
export const REFERENCE_CONFIGS: readonly HedgeConfig[] = Object.freeze([
  { name: 'no hedge' },
  { name: 'hedge, no budget', hedge: { delayMs: 20, budgetPercent: 0 } },
  { name: 'hedge, default budget', hedge: { delayMs: 20 } },
  { name: 'hedge, budget 5 %', hedge: { delayMs: 20, budgetPercent: 5 } },
  { name: 'hedge, default budget, adaptive limit', hedge: { delayMs: 20 }, adaptiveLimit: {} },
  { name: '3 attempts, no budget', hedge: { delayMs: 20, maxAttempts: 3, budgetPercent: 0 } },
]);

/** Looks a reference configuration up by its name; undefined if there is none. */
export function referenceConfig(name: string): HedgeConfig | undefined {
  return REFERENCE_CONFIGS.find((c) => c.name === name);
}
