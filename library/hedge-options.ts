// The options of a HedgePolicy and their resolution: validation (ConfigError naming the field and the fix)
// and defaults, so the model layer can read every resolved duration (e.g. to dilate a configuration by k).
import {
  DEFAULT_BUDGET,
  type HedgeBudgetSettings,
  type HedgeBudgetShape,
  resolveHedgeBudget,
} from './budget-shape.ts';
import type { Clock } from './clock.ts';
import { ConfigError } from './errors.ts';
import { type HedgeDelayOptions, type HedgeDelaySettings, resolveHedgeDelay } from './percentile-delay.ts';
import { HEDGE_RANGES } from './ranges.ts';
import { checkChoice, checkFunction, checkKnownKeys, checkRange } from './validate.ts';

/** How a call picks its outcome among its attempts. */
export const WINNER_RULES = ['first-success', 'first-completion'] as const;
export type WinnerRule = (typeof WINNER_RULES)[number];
/** What a first-success call does when its only running attempt fails before the hedge timer fires. */
export const LONE_FAILURE_RULES = ['wait', 'hedge-now'] as const;
export type LoneFailureRule = (typeof LONE_FAILURE_RULES)[number];

/** Options of the hedge policy (all optional except the clock). */
export interface HedgePolicyOptions {
  clock: Clock;
  /** Delay between the most recent start and the next hedge, ms (default 1000, >= 0). */
  delayMs?: number;
  /** A percentile delay instead of (or combined with) delayMs; default none (delayMs alone). */
  delay?: HedgeDelayOptions;
  /** Attempts per call including the first (default 2, valid 2..10). */
  maxAttempts?: number;
  /** Hedges as a percentage of calls (default 10, 0..100; 0 = no budget, unlimited hedges). Ratio shape only. */
  budgetPercent?: number;
  /** Hedges per second of window always allowed (default 1, >= 0). Ratio shape only. */
  budgetMinHedgesPerSecond?: number;
  /** Budget window, ms (default 10 000, valid 1 000..60 000 000). Ratio shape only. */
  budgetWindowMs?: number;
  /** The budget's shape (default { kind: 'ratio' }: the three budget* fields above). */
  budget?: HedgeBudgetShape;
  /** A failure for which the next attempt starts at once (subject to the budget). */
  hedgeOn?: (error: unknown) => boolean;
  /** A failure that ends the call with that error at once. */
  abortOn?: (error: unknown) => boolean;
  /** 'first-success' (default): a failure ends the call only when no attempt may still succeed. 'first-completion': the first attempt to end, ok or not, ends it. */
  winner?: WinnerRule;
  /** first-success only: 'wait' (default) for the hedge timer, or 'hedge-now' to start the next attempt at once. */
  loneFailure?: LoneFailureRule;
  /** Deadline shared by all attempts of a call, ms after its start (default none). */
  deadlineMs?: number;
  /** A hedge is not started when less than this remains before the deadline, ms (default 0). */
  minRemainingMs?: number;
}

/**
 * The resolved settings a HedgePolicy runs with. Durations a dilated clock scales: delayMs, budgetWindowMs
 * (ratio shape only), delay.windowMs / floorMs / capMs, deadlineMs, minRemainingMs; budgetMinHedgesPerSecond
 * is a rate (÷ k). The concurrency and tokens shapes hold no durations.
 */
export interface HedgeSettings {
  delayMs: number;
  maxAttempts: number;
  budgetPercent: number;
  budgetMinHedgesPerSecond: number;
  budgetWindowMs: number;
  deadlineMs: number | undefined;
  minRemainingMs: number;
  /** The percentile delay rule; undefined = the fixed delayMs alone (the default). */
  delay: HedgeDelaySettings | undefined;
  budget: HedgeBudgetSettings;
  winner: WinnerRule;
  loneFailure: LoneFailureRule;
}

const KNOWN = [
  'clock',
  'delayMs',
  'delay',
  'maxAttempts',
  'budgetPercent',
  'budgetMinHedgesPerSecond',
  'budgetWindowMs',
  'budget',
  'hedgeOn',
  'abortOn',
  'winner',
  'loneFailure',
  'deadlineMs',
  'minRemainingMs',
] as const;

const RATIO_FIELDS = ['budgetPercent', 'budgetMinHedgesPerSecond', 'budgetWindowMs'] as const;

/** Validates hedge options and fills in the defaults; throws ConfigError naming the field. */
export function resolveHedgeOptions(o: Omit<HedgePolicyOptions, 'clock'>, prefix = 'hedge'): HedgeSettings {
  if (typeof o !== 'object' || o === null) throw new ConfigError(prefix, o, 'must be an object of options');
  checkKnownKeys(prefix, o, KNOWN);
  checkFunction(`${prefix}.hedgeOn`, o.hedgeOn);
  checkFunction(`${prefix}.abortOn`, o.abortOn);
  const budget = o.budget === undefined ? DEFAULT_BUDGET : resolveHedgeBudget(o.budget, `${prefix}.budget`);
  if (budget.kind !== 'ratio') {
    // A ratio field beside another shape would be silently ignored; say so instead.
    for (const f of RATIO_FIELDS) {
      if (o[f] !== undefined) {
        throw new ConfigError(
          `${prefix}.${f}`,
          o[f],
          `applies to the ratio budget only, not to budget.kind '${budget.kind}'`,
          "Drop it, or use budget { kind: 'ratio' }.",
        );
      }
    }
  }
  const winner = checkChoice(`${prefix}.winner`, o.winner, WINNER_RULES) ?? 'first-success';
  const loneFailure = checkChoice(`${prefix}.loneFailure`, o.loneFailure, LONE_FAILURE_RULES) ?? 'wait';
  if (winner === 'first-completion') {
    if (o.loneFailure === 'hedge-now') {
      throw new ConfigError(
        `${prefix}.loneFailure`,
        o.loneFailure,
        "applies to winner 'first-success' only: with 'first-completion' every failure ends the call",
        "Drop loneFailure, or use winner 'first-success'.",
      );
    }
    if (o.hedgeOn !== undefined) {
      throw new ConfigError(
        `${prefix}.hedgeOn`,
        'function',
        "has no effect with winner 'first-completion' (every failure ends the call)",
        "Drop hedgeOn, or use winner 'first-success'.",
      );
    }
  }
  return {
    delayMs: checkRange(`${prefix}.delayMs`, o.delayMs, HEDGE_RANGES.delayMs) ?? 1000,
    maxAttempts: checkRange(`${prefix}.maxAttempts`, o.maxAttempts, HEDGE_RANGES.maxAttempts) ?? 2,
    budgetPercent: checkRange(`${prefix}.budgetPercent`, o.budgetPercent, HEDGE_RANGES.budgetPercent) ?? 10,
    budgetMinHedgesPerSecond:
      checkRange(
        `${prefix}.budgetMinHedgesPerSecond`,
        o.budgetMinHedgesPerSecond,
        HEDGE_RANGES.budgetMinHedgesPerSecond,
      ) ?? 1,
    budgetWindowMs:
      checkRange(`${prefix}.budgetWindowMs`, o.budgetWindowMs, HEDGE_RANGES.budgetWindowMs) ?? 10_000,
    deadlineMs: checkPositive(`${prefix}.deadlineMs`, o.deadlineMs),
    minRemainingMs:
      checkRange(`${prefix}.minRemainingMs`, o.minRemainingMs, HEDGE_RANGES.minRemainingMs) ?? 0,
    delay: o.delay === undefined ? undefined : resolveHedgeDelay(o.delay, `${prefix}.delay`),
    budget,
    winner,
    loneFailure,
  };
}

function checkPositive(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0) || value === Number.POSITIVE_INFINITY) {
    throw new ConfigError(field, value, 'must be a number > 0 (ms); leave it out for no deadline');
  }
  return value;
}
