// HedgePolicy: the shared state of every call through one policy (its budget of whichever shape, its
// percentile delay, server pushback), listeners and counters; the per-call logic is in hedge-call.ts and
// the options in hedge-options.ts. One policy instance = one budget shared by every call through it.
import { A6Throttle } from './a6-throttle.ts';
import { HedgeBudget } from './budget.ts';
import type { Clock } from './clock.ts';
import { ConcurrencyBudget } from './concurrency-budget.ts';
import { CancelledError, ConfigError } from './errors.ts';
import { HedgeCall } from './hedge-call.ts';
import { type HedgePolicyOptions, type HedgeSettings, resolveHedgeOptions } from './hedge-options.ts';
import type { CallState, Operation, Policy } from './operation.ts';
import { PercentileDelay } from './percentile-delay.ts';

/** Counters of a HedgePolicy since it was made. */
export interface HedgeSnapshot {
  calls: number;
  /** Extra attempts started (after the budget allowed them), for either reason below. */
  hedges: number;
  /** Of `hedges`, those started at once because an attempt failed (hedgeOn, loneFailure 'hedge-now'). */
  hedgedOnError: number;
  /** Hedges the budget refused (any shape, pushback included). */
  skipped: number;
  /** Of `skipped`, those refused because a server pushback was in force. */
  pushbackSkipped: number;
  /** Hedges not started because the deadline was too close. */
  deadlineSkipped: number;
  /** Calls won, in total and by attempt: wonByAttempt[n] = calls won by attempt n (index 0 unused). */
  won: number;
  wonByAttempt: number[];
  /** Calls that failed (every attempt failed, abortOn, first-completion, deadline, or rejected by the limit). */
  failed: number;
  /** Calls that ended with AdaptiveLimitFullError. */
  rejected: number;
  /** Calls that hit their deadline. */
  deadlineExceeded: number;
  /** Calls cancelled by their caller. */
  cancelled: number;
  /** Calls in progress. */
  active: number;
  /** Hedges the budget allows right now (Infinity without a bound; 0 while a pushback is in force). */
  budgetAvailable: number;
  /** The hedge delay a call starting now would use, ms (Infinity = no timed hedge). */
  delayMs: number;
  /** The clamped percentile in force (percentile delay only; NaN before the window held minSamples). */
  percentileMs: number | undefined;
  /** Hedges in flight (concurrency budget only). */
  hedgesInFlight: number | undefined;
  /** Tokens in the bucket (tokens budget only). */
  tokens: number | undefined;
  /** No hedge starts before this time (a pushback is or was in force), ms on the policy's clock. */
  pushbackUntil: number | undefined;
}

/** Listener of hedge events: the call and the attempt concerned. */
export type HedgeListener = (call: CallState, attempt: number) => void;
/** Listener of failed calls: the call and its final error. */
export type HedgeFailedListener = (call: CallState, error: unknown) => void;

/** Hedging: the first attempt at once, another every `delayMs` until one succeeds, within a budget. */
export class HedgePolicy implements Policy {
  readonly clock: Clock;
  readonly settings: Readonly<HedgeSettings>;
  /** The ratio budget shared by every call; undefined when budgetPercent is 0 or another shape is used. */
  readonly budget: HedgeBudget | undefined;
  /** The concurrency budget (budget.kind 'concurrency'). */
  readonly concurrency: ConcurrencyBudget | undefined;
  /** The token bucket (budget.kind 'tokens'). */
  readonly tokens: A6Throttle | undefined;
  /** The percentile delay (option `delay`). */
  readonly delayRule: PercentileDelay | undefined;
  /** Whether an attempt's Outcome.pushbackMs stops hedges (budget.kind 'pushback', or pushback: true). */
  readonly honoursPushback: boolean;
  readonly hedgeOn: ((error: unknown) => boolean) | undefined;
  readonly abortOn: ((error: unknown) => boolean) | undefined;
  /** winner 'first-completion': any attempt that ends, ends the call. */
  readonly firstCompletion: boolean;
  /** loneFailure 'hedge-now': the only running attempt failing starts the next at once. */
  readonly hedgeOnLoneFailure: boolean;
  /**
   * @internal Some option needs every attempt's end seen (delay, concurrency, tokens, pushback). False
   * with the default options, so those calls take exactly the plain path and pay one branch per event.
   */
  readonly ext: boolean;
  /** @internal no hedge starts before this (server pushback); -Infinity = none yet. */
  pushbackUntil = Number.NEGATIVE_INFINITY;
  /** The reason losers are cancelled with (one instance: a loser is routine, not worth a stack trace each). */
  readonly lostReason = new CancelledError('attempt lost: another attempt of the call succeeded first');
  /** The reason the other attempts are cancelled with when a call fails (abortOn, refusal …). */
  readonly endedReason = new CancelledError('attempt cancelled: its call already ended');
  /** @internal counters, read through snapshot(). */
  readonly c = {
    calls: 0,
    hedges: 0,
    hedgedOnError: 0,
    skipped: 0,
    pushbackSkipped: 0,
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
    const b = s.budget;
    this.budget =
      b.kind === 'ratio' && s.budgetPercent > 0
        ? new HedgeBudget({
            percent: s.budgetPercent,
            minPerSecond: s.budgetMinHedgesPerSecond,
            windowMs: s.budgetWindowMs,
          })
        : undefined;
    this.concurrency = b.kind === 'concurrency' ? new ConcurrencyBudget(b.percent, b.min) : undefined;
    this.tokens =
      b.kind === 'tokens' ? new A6Throttle({ maxTokens: b.maxTokens, tokenRatio: b.tokenRatio }) : undefined;
    this.honoursPushback = b.pushback;
    this.delayRule = s.delay === undefined ? undefined : new PercentileDelay(s.delay, s.delayMs);
    this.firstCompletion = s.winner === 'first-completion';
    this.hedgeOnLoneFailure = s.loneFailure === 'hedge-now';
    this.ext =
      this.delayRule !== undefined ||
      this.concurrency !== undefined ||
      this.tokens !== undefined ||
      this.honoursPushback;
    this.wonByAttempt = new Array<number>(s.maxAttempts + 1).fill(0);
  }

  /** Wraps an operation: every call through the result is hedged by this policy and its budget. */
  wrap<T>(inner: Operation<T>): Operation<T> {
    return (call, _attempt, done) => new HedgeCall(this, inner, call, done).start();
  }

  /**
   * @internal Whether a hedge may start now, taking its share of the budget if so: pushback first (a
   * refusal there spends nothing), then the shape. Only on the `ext` path; the plain path asks `budget` itself.
   */
  allowHedge(now: number): boolean {
    if (now < this.pushbackUntil) {
      this.c.pushbackSkipped++;
      return false;
    }
    if (this.budget !== undefined) return this.budget.tryWithdraw(now);
    if (this.concurrency !== undefined) return this.concurrency.tryAcquire(this.c.active);
    const t = this.tokens;
    if (t !== undefined) {
      if (!t.allows()) return false;
      t.take();
    }
    return true;
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
    const now = this.clock.now();
    const d = this.delayRule?.state(now);
    return {
      ...this.c,
      wonByAttempt: this.wonByAttempt.slice(),
      budgetAvailable: this.available(now),
      delayMs: d === undefined ? this.settings.delayMs : d.delayMs,
      percentileMs: d?.percentileMs,
      hedgesInFlight: this.concurrency?.inflight,
      tokens: this.tokens?.tokens,
      pushbackUntil: this.pushbackUntil === Number.NEGATIVE_INFINITY ? undefined : this.pushbackUntil,
    };
  }

  private available(now: number): number {
    if (now < this.pushbackUntil) return 0;
    if (this.budget !== undefined) return this.budget.hedgesAvailable(now);
    if (this.concurrency !== undefined) return this.concurrency.available(this.c.active);
    if (this.tokens !== undefined) return this.tokens.allowance();
    return Number.POSITIVE_INFINITY;
  }
}

/** Makes a HedgePolicy (see HedgePolicyOptions for the defaults). */
export function hedge(options: HedgePolicyOptions): HedgePolicy {
  return new HedgePolicy(options);
}

function subscribe<L>(list: L[], listener: L): () => void {
  list.push(listener);
  return () => {
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
  };
}
