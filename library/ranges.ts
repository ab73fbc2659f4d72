// The valid range of every numeric policy option, exported so that the matrix schema (model/) and the
// command-line checks enforce the ranges the library enforces, from one definition instead of copies.

/** An inclusive range; `integer` = whole numbers only. */
export interface OptionRange {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
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
