// A6HedgePolicy: hedging with gRFC A6's semantics (gRPC's service-config `hedgingPolicy`), so the simulator
// predicts what a gRPC client that follows A6 does. Differences from HedgePolicy: a new attempt every
// hedgingDelay after the previous one whatever happened, a non-fatal status sends the next at once, any
// other failure ends the call (fatal), and the retryThrottling bucket instead of a budget.
import { A6Throttle, type A6ThrottleOptions } from './a6-throttle.ts';
import type { Clock, TimerHandle } from './clock.ts';
import { CancelledError, ConfigError } from './errors.ts';
import type { CallState, Cancel, Operation, Outcome, Policy } from './operation.ts';
import { checkKnownKeys } from './validate.ts';

/** The most attempts A6 lets a client send per call; larger maxAttempts are treated as this. */
export const A6_MAX_ATTEMPTS = 5;

/** Options of A6HedgePolicy. */
export interface A6HedgeOptions {
  clock: Clock;
  /** Attempts per call including the first: ≥ 2; above 5 it is treated as 5 (A6). */
  maxAttempts: number;
  /** Delay between attempts, ms (≥ 0; 0 = every attempt at once). */
  hedgingDelayMs: number;
  /** Status codes after which the next attempt goes at once; any other failure ends the call. */
  nonFatalStatusCodes?: readonly number[];
  /** The status code of a failed attempt (default: its numeric `code`, else none = fatal). */
  statusOf?: (error: unknown) => number | undefined;
  /** The channel's retryThrottling bucket; absent = no throttling. */
  retryThrottling?: A6ThrottleOptions;
  /**
   * Whether the bucket can stop a hedge (default true, as A6 says). false models a client that checks
   * it on retries only: hedges then still take tokens when they fail, but are always sent.
   */
  throttleHedges?: boolean;
}

const KNOWN = [
  'clock',
  'maxAttempts',
  'hedgingDelayMs',
  'nonFatalStatusCodes',
  'statusOf',
  'retryThrottling',
  'throttleHedges',
] as const;

/** Checks A6 hedging options (without the clock); throws ConfigError naming the field and A6's rule. */
export function checkA6Hedge(o: Omit<A6HedgeOptions, 'clock'>, prefix = 'grpcHedging'): void {
  if (typeof o !== 'object' || o === null) throw new ConfigError(prefix, o, 'must be an object of options');
  checkKnownKeys(prefix, o, KNOWN);
  if (typeof o.maxAttempts !== 'number' || !Number.isInteger(o.maxAttempts) || o.maxAttempts < 2) {
    throw new ConfigError(
      `${prefix}.maxAttempts`,
      o.maxAttempts,
      'gRFC A6 requires a whole number ≥ 2 (it counts the original attempt; clients cap it at 5)',
    );
  }
  if (
    typeof o.hedgingDelayMs !== 'number' ||
    !(o.hedgingDelayMs >= 0) ||
    !Number.isFinite(o.hedgingDelayMs)
  ) {
    throw new ConfigError(
      `${prefix}.hedgingDelayMs`,
      o.hedgingDelayMs,
      'gRFC A6 requires a hedgingDelay ≥ 0 (0 sends every attempt at once)',
    );
  }
  const codes = o.nonFatalStatusCodes;
  if (
    codes !== undefined &&
    (!Array.isArray(codes) || !codes.every((c) => Number.isInteger(c) && c >= 1 && c <= 16))
  ) {
    throw new ConfigError(
      `${prefix}.nonFatalStatusCodes`,
      codes,
      'must be a list of gRPC status codes 1..16 (OK is never a failure)',
    );
  }
  if (o.statusOf !== undefined && typeof o.statusOf !== 'function') {
    throw new ConfigError(
      `${prefix}.statusOf`,
      o.statusOf,
      'must be a function (error) => number | undefined',
    );
  }
  if (o.throttleHedges !== undefined && typeof o.throttleHedges !== 'boolean') {
    throw new ConfigError(`${prefix}.throttleHedges`, o.throttleHedges, 'must be true or false');
  }
}

/** Counters of an A6HedgePolicy since it was made. */
export interface A6HedgeSnapshot {
  calls: number;
  /** Attempts after the first that were sent. */
  hedges: number;
  /** Calls whose next hedge the bucket refused. */
  throttled: number;
  won: number;
  failed: number;
  /** Tokens in the bucket now (Infinity without throttling). */
  tokens: number;
}

const defaultStatusOf = (e: unknown): number | undefined => {
  const c = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof c === 'number' ? c : undefined;
};

/** Hedging per gRFC A6, with its retryThrottling bucket shared by every call through the policy. */
export class A6HedgePolicy implements Policy {
  readonly clock: Clock;
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly throttle: A6Throttle | undefined;
  readonly throttleHedges: boolean;
  private readonly nonFatal: ReadonlySet<number>;
  private readonly statusOf: (error: unknown) => number | undefined;
  readonly lostReason = new CancelledError('attempt lost: another attempt of the call committed first');
  readonly endedReason = new CancelledError('attempt cancelled: its call already ended');
  /** @internal counters, read through snapshot(). */
  readonly c = { calls: 0, hedges: 0, throttled: 0, won: 0, failed: 0 };

  constructor(options: A6HedgeOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('grpcHedging', options, 'must be an object with at least a clock');
    }
    const { clock, ...rest } = options;
    if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function') {
      throw new ConfigError('grpcHedging.clock', clock, 'must be a Clock ({ now(), setTimer() })');
    }
    checkA6Hedge(rest);
    this.clock = clock;
    this.maxAttempts = Math.min(options.maxAttempts, A6_MAX_ATTEMPTS);
    this.delayMs = options.hedgingDelayMs;
    this.nonFatal = new Set(options.nonFatalStatusCodes ?? []);
    this.statusOf = options.statusOf ?? defaultStatusOf;
    this.throttle =
      options.retryThrottling === undefined ? undefined : new A6Throttle(options.retryThrottling);
    this.throttleHedges = options.throttleHedges ?? true;
  }

  /** True when `error` carries a non-fatal status. */
  isNonFatal(error: unknown): boolean {
    const s = this.statusOf(error);
    return s !== undefined && this.nonFatal.has(s);
  }

  wrap<T>(inner: Operation<T>): Operation<T> {
    return (call, _attempt, done) => new A6Call(this, inner, call, done).start();
  }

  snapshot(): A6HedgeSnapshot {
    return { ...this.c, tokens: this.throttle?.tokens ?? Number.POSITIVE_INFINITY };
  }
}

// One call through an A6HedgePolicy.
class A6Call<T> {
  private sent = 0;
  private readonly cancels: (Cancel | undefined)[] = [];
  private running = 0;
  private settled = false;
  private stopped = false;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly p: A6HedgePolicy,
    private readonly inner: Operation<T>,
    private readonly state: CallState,
    private readonly done: (o: Outcome<T>) => void,
  ) {}

  start(): Cancel {
    this.p.c.calls++;
    this.send(); // the first attempt is always sent, throttled or not
    return (reason) => {
      if (!this.settled) this.settle(reason);
    };
  }

  private send(): void {
    const k = ++this.sent;
    this.running++;
    this.timer?.cancel();
    this.timer = undefined;
    let finished = false;
    const cancel = this.inner(this.state, k, (o) => {
      if (finished) return;
      finished = true;
      this.onDone(k, o);
    });
    if (finished || this.settled) {
      if (!finished) {
        finished = true;
        cancel(this.settled ? this.p.lostReason : undefined);
      }
    } else
      this.cancels[k] = () => {
        if (finished) return;
        finished = true;
        cancel(this.p.lostReason);
      };
    if (!this.settled && this.timer === undefined && this.sent < this.p.maxAttempts && !this.stopped) {
      this.timer = this.p.clock.setTimer(() => this.onTimer(), this.p.delayMs);
    }
  }

  // The hedging delay passed with no commit: send the next attempt, unless the bucket says no.
  private onTimer(): void {
    this.timer = undefined;
    if (this.settled) return;
    this.hedge();
  }

  // `onError`: sent because an attempt failed (counted in CallState.hedgedOnError), not because the delay passed.
  private hedge(onError = false): boolean {
    const p = this.p;
    if (this.stopped || this.sent >= p.maxAttempts) return false;
    if (p.throttle !== undefined && p.throttleHedges && !p.throttle.allows()) {
      // Throttled: this call sends no more hedges.
      this.stopped = true;
      this.state.skipped++;
      p.c.throttled++;
      return false;
    }
    p.c.hedges++;
    if (onError) this.state.hedgedOnError++;
    this.send();
    return true;
  }

  private onDone(k: number, o: Outcome<T>): void {
    this.cancels[k] = undefined;
    this.running--;
    if (this.settled) return;
    const p = this.p;
    if (o.ok) {
      p.throttle?.succeeded();
      this.state.winner = k;
      p.c.won++;
      this.settle(p.lostReason);
      this.done(o);
      return;
    }
    if (p.isNonFatal(o.error)) {
      p.throttle?.failed();
      // A non-fatal status shortcuts the delay: the next attempt goes now (if any may).
      if (this.hedge(true)) return;
      if (this.running > 0 || (this.timer !== undefined && !this.stopped)) return;
    }
    // A fatal status, or the last non-fatal one: the call ends with it and the others are cancelled.
    p.c.failed++;
    this.settle(p.endedReason);
    this.done(o);
  }

  private settle(reason: unknown): void {
    this.settled = true;
    this.timer?.cancel();
    this.timer = undefined;
    for (let k = 1; k <= this.sent; k++) {
      const c = this.cancels[k];
      this.cancels[k] = undefined;
      c?.(reason);
    }
  }
}

/** Makes an A6HedgePolicy. */
export function a6Hedge(options: A6HedgeOptions): A6HedgePolicy {
  return new A6HedgePolicy(options);
}
