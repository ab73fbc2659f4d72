// Hedge configurations: what a point runs through the library's Pipeline, by name or as a user's JSON.

import type { HedgeBudgetShape, HedgeDelayOptions, LoneFailureRule, WinnerRule } from '../library/index.ts';
import type { GrpcHedgingOptions, RetryThrottlingOptions } from './grpc-hedging.ts';
import type { TiedOptions } from './tied.ts';

/**
 * Options of the hedge policy as a user writes them (all optional; library defaults otherwise). None of
 * `delay`, `budget`, `winner`, `loneFailure` given = the policy as it was before they existed.
 */
export interface HedgeOptions {
  delayMs?: number;
  maxAttempts?: number;
  /** 0 = no budget (unlimited hedges). Ratio budget only. */
  budgetPercent?: number;
  budgetMinHedgesPerSecond?: number;
  budgetWindowMs?: number;
  /** The delay from a windowed percentile of every attempt's latency (library/percentile-delay.ts). */
  delay?: HedgeDelayOptions;
  /** The budget's shape: ratio (the three fields above), concurrency, tokens, or server pushback. */
  budget?: HedgeBudgetShape;
  /** 'first-success' (default) or 'first-completion': which attempt's end ends the call. */
  winner?: WinnerRule;
  /** first-success only: 'wait' (default) for the hedge timer after a lone failure, or 'hedge-now'. */
  loneFailure?: LoneFailureRule;
}

/** Options of the Gradient2 adaptive limit (all optional; Netflix defaults otherwise). */
interface AdaptiveLimitOptions {
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

/**
 * True when the configuration's budget honours server pushback (`budget.kind: 'pushback'`, or `pushback:
 * true` on another shape): only then does a transport need to read a response's pushback.
 */
export function honoursPushback(config: HedgeConfig): boolean {
  const b = config.hedge?.budget;
  return b !== undefined && (b.kind === 'pushback' || b.pushback === true);
}

/** Who hedges a configuration's calls: hedgebench's library, or grpc-js from its service config. */
type Hedger = 'library' | 'grpc-js';

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
