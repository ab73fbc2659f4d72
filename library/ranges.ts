// The valid range of every numeric policy option, exported so that the matrix schema (model/) and the
// command-line checks enforce the ranges the library enforces, from one definition instead of copies.

/** A range, inclusive unless `minExclusive` / `maxExclusive`; `integer` = whole numbers only. */
export interface OptionRange {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
  /** The bound itself is outside the range (a percentile of 0 or 100 is not a percentile). */
  readonly minExclusive?: boolean;
  readonly maxExclusive?: boolean;
}

const INF = Number.POSITIVE_INFINITY;

/** Ranges of the hedge options (resolveHedgeOptions). */
export const HEDGE_RANGES = {
  delayMs: { min: 0, max: INF },
  maxAttempts: { min: 2, max: 10, integer: true },
  budgetPercent: { min: 0, max: 100 },
  budgetMinHedgesPerSecond: { min: 0, max: 1_000_000 },
  // A matrix asks for at most 60 s (model/hedge-config-schema.ts); a dilated clock (docs/time-scale.md) runs it up to 1 000× longer.
  budgetWindowMs: { min: 1000, max: 60_000_000 },
  minRemainingMs: { min: 0, max: INF },
} as const satisfies Record<string, OptionRange>;

/** Ranges of the adaptive-limit options (resolveLimitOptions); initialLimit must lie in [minLimit, maxLimit]. */
export const ADAPTIVE_LIMIT_RANGES = {
  minLimit: { min: 1, max: 1_000_000 },
  maxLimit: { min: 1, max: 1_000_000 },
  smoothing: { min: 0, max: 1 },
  rttTolerance: { min: 1, max: INF },
  longWindow: { min: 1, max: 1e9, integer: true },
  queueSize: { min: 0, max: 1_000_000 },
  windowMs: { min: 1, max: INF },
  windowMinSamples: { min: 1, max: 1e9, integer: true },
  minRttMs: { min: 0, max: INF },
} as const satisfies Record<string, OptionRange>;

/** Ranges of the percentile delay rule (`hedge.delay`, resolveHedgeDelay); floorMs must not exceed capMs. */
export const HEDGE_DELAY_RANGES = {
  percentile: { min: 0, max: 100, minExclusive: true, maxExclusive: true },
  // Slots of windowMs / 5 must hold enough attempts to mean something; the top is budgetWindowMs's (dilation).
  windowMs: { min: 1000, max: 60_000_000 },
  minSamples: { min: 1, max: 1e9, integer: true },
  floorMs: { min: 0, max: INF },
  capMs: { min: 0, max: INF },
} as const satisfies Record<string, OptionRange>;

/** Ranges of the budget shapes (`hedge.budget`, resolveHedgeBudget). */
export const HEDGE_BUDGET_RANGES = {
  /** concurrency: hedges in flight as a percentage of calls in flight. */
  percent: { min: 0, max: 100, minExclusive: true },
  /** concurrency: hedges in flight always allowed. */
  min: { min: 0, max: 1_000_000, integer: true },
  /** tokens: gRFC A6's retryThrottling bounds (tokenRatio also takes at most 3 decimals). */
  maxTokens: { min: 0, max: 1000, minExclusive: true },
  tokenRatio: { min: 0, max: INF, minExclusive: true },
} as const satisfies Record<string, OptionRange>;
