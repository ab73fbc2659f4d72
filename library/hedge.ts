// HedgePolicy: options, validation, the shared budget, listeners and counters; the per-call logic is in
// hedge-call.ts. One policy instance = one budget shared by every call through it.
import { HedgeBudget } from './budget.ts';
import type { Clock } from './clock.ts';
import { CancelledError, ConfigError } from './errors.ts';
import { HedgeCall } from './hedge-call.ts';
import type { CallState, Operation, Policy } from './operation.ts';
import { HEDGE_RANGES } from './ranges.ts';
import { checkFunction, checkKnownKeys, checkRange } from './validate.ts';

/** Options of the hedge policy (all optional except the clock). */
export interface HedgePolicyOptions {
  clock: Clock;
  /** Delay between the most recent start and the next hedge, ms (default 1000, >= 0). */
  delayMs?: number;
  /** Attempts per call including the first (default 2, valid 2..10). */
  maxAttempts?: number;
  /** Hedges as a percentage of calls (default 10, 0..100; 0 = no budget, unlimited hedges). */
  budgetPercent?: number;
  /** Hedges per second of window always allowed (default 1, >= 0). */
  budgetMinHedgesPerSecond?: number;
  /** Budget window, ms (default 10 000, valid 1 000..60 000). */
  budgetWindowMs?: number;
  /** A failure for which the next attempt starts at once (subject to the budget). */
  hedgeOn?: (error: unknown) => boolean;
  /** A failure that ends the call with that error at once. */
  abortOn?: (error: unknown) => boolean;
  /** Deadline shared by all attempts of a call, ms after its start (default none). */
  deadlineMs?: number;
  /** A hedge is not started when less than this remains before the deadline, ms (default 0). */
  minRemainingMs?: number;
}

/** The resolved settings a HedgePolicy runs with. */
export interface HedgeSettings {
  delayMs: number;
  maxAttempts: number;
  budgetPercent: number;
  budgetMinHedgesPerSecond: number;
  budgetWindowMs: number;
  deadlineMs: number | undefined;
  minRemainingMs: number;
}

/** Counters of a HedgePolicy since it was made. */
export interface HedgeSnapshot {
  calls: number;
  /** Extra attempts started (after a successful budget withdraw). */
  hedges: number;
  /** Hedges the budget refused. */
  skipped: number;
  /** Hedges not started because the deadline was too close. */
  deadlineSkipped: number;
  /** Calls won, in total and by attempt: wonByAttempt[n] = calls won by attempt n (index 0 unused). */
  won: number;
  wonByAttempt: number[];
  /** Calls that failed (every attempt failed, abortOn, deadline, or rejected by the limit). */
  failed: number;
  /** Calls that ended with AdaptiveLimitFullError. */
  rejected: number;
  /** Calls that hit their deadline. */
  deadlineExceeded: number;
  /** Calls cancelled by their caller. */
  cancelled: number;
  /** Calls in progress. */
  active: number;
  /** Hedges the budget allows right now (Infinity without a budget). */
  budgetAvailable: number;
}

/** Listener of hedge events: the call and the attempt concerned. */
export type HedgeListener = (call: CallState, attempt: number) => void;
/** Listener of failed calls: the call and its final error. */
export type HedgeFailedListener = (call: CallState, error: unknown) => void;

const KNOWN = [
  'clock',
  'delayMs',
  'maxAttempts',
  'budgetPercent',
  'budgetMinHedgesPerSecond',
  'budgetWindowMs',
  'hedgeOn',
  'abortOn',
  'deadlineMs',
  'minRemainingMs',
] as const;

/** Validates hedge options and fills in the defaults; throws ConfigError naming the field. */
export function resolveHedgeOptions(o: Omit<HedgePolicyOptions, 'clock'>, prefix = 'hedge'): HedgeSettings {
  if (typeof o !== 'object' || o === null) throw new ConfigError(prefix, o, 'must be an object of options');
  checkKnownKeys(prefix, o, KNOWN);
  checkFunction(`${prefix}.hedgeOn`, o.hedgeOn);
  checkFunction(`${prefix}.abortOn`, o.abortOn);
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
  };
}

/** Hedging: the first attempt at once, another every `delayMs` until one succeeds, within a budget. */
export class HedgePolicy implements Policy {
  readonly clock: Clock;
  readonly settings: Readonly<HedgeSettings>;
  /** The budget shared by every call; undefined when budgetPercent is 0 (unlimited hedges). */
  readonly budget: HedgeBudget | undefined;
  readonly hedgeOn: ((error: unknown) => boolean) | undefined;
  readonly abortOn: ((error: unknown) => boolean) | undefined;
  /** The reason losers are cancelled with (one instance: a loser is routine, not worth a stack trace each). */
  readonly lostReason = new CancelledError('attempt lost: another attempt of the call succeeded first');
  /** The reason the other attempts are cancelled with when a call fails (abortOn, refusal …). */
  readonly endedReason = new CancelledError('attempt cancelled: its call already ended');
  /** @internal counters, read through snapshot(). */
  readonly c = {
    calls: 0,
    hedges: 0,
    skipped: 0,
    deadlineSkipped: 0,
    won: 0,
    failed: 0,
    rejected: 0,
    deadlineExceeded: 0,
    cancelled: 0,
    active: 0,
  };
  /** @internal wins by attempt number. */
  readonly wonByAttempt: number[];
  /** @internal listeners (arrays stay empty, and cost one length check, when nobody listens). */
  readonly hedgedListeners: HedgeListener[] = [];
  readonly skippedListeners: HedgeListener[] = [];
  readonly wonListeners: HedgeListener[] = [];
  readonly failedListeners: HedgeFailedListener[] = [];

  constructor(options: HedgePolicyOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('hedge', options, 'must be an object with at least a clock');
    }
    const { clock, ...rest } = options;
    if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function') {
      throw new ConfigError('hedge.clock', clock, 'must be a Clock ({ now(), setTimer() })');
    }
    this.clock = clock;
    this.settings = Object.freeze(resolveHedgeOptions(rest));
    this.hedgeOn = options.hedgeOn;
    this.abortOn = options.abortOn;
    const s = this.settings;
    this.budget =
      s.budgetPercent > 0
        ? new HedgeBudget({
            percent: s.budgetPercent,
            minPerSecond: s.budgetMinHedgesPerSecond,
            windowMs: s.budgetWindowMs,
          })
        : undefined;
    this.wonByAttempt = new Array<number>(s.maxAttempts + 1).fill(0);
  }

  /** Wraps an operation: every call through the result is hedged by this policy and its budget. */
  wrap<T>(inner: Operation<T>): Operation<T> {
    return (call, _attempt, done) => new HedgeCall(this, inner, call, done).start();
  }

  /** Listens to hedges that start; returns an unsubscribe function. */
  onHedged(listener: HedgeListener): () => void {
    return subscribe(this.hedgedListeners, listener);
  }

  /** Listens to hedges the budget refused; returns an unsubscribe function. */
  onSkipped(listener: HedgeListener): () => void {
    return subscribe(this.skippedListeners, listener);
  }

  /** Listens to calls won (with the winning attempt); returns an unsubscribe function. */
  onWon(listener: HedgeListener): () => void {
    return subscribe(this.wonListeners, listener);
  }

  /** Listens to calls that failed (with the final error); returns an unsubscribe function. */
  onFailed(listener: HedgeFailedListener): () => void {
    return subscribe(this.failedListeners, listener);
  }

  /** Current counters (a copy). */
  snapshot(): HedgeSnapshot {
    return {
      ...this.c,
      wonByAttempt: this.wonByAttempt.slice(),
      budgetAvailable:
        this.budget === undefined ? Number.POSITIVE_INFINITY : this.budget.hedgesAvailable(this.clock.now()),
    };
  }
}

/** Makes a HedgePolicy (see HedgePolicyOptions for the defaults). */
export function hedge(options: HedgePolicyOptions): HedgePolicy {
  return new HedgePolicy(options);
}

function checkPositive(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0) || value === Number.POSITIVE_INFINITY) {
    throw new ConfigError(field, value, 'must be a number > 0 (ms); leave it out for no deadline');
  }
  return value;
}

function subscribe<L>(list: L[], listener: L): () => void {
  list.push(listener);
  return () => {
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
  };
}
