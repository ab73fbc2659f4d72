// AdaptiveLimitPolicy: a Gradient2 concurrency limit on attempts in flight. Rejects at once (no queue) and
// releases each permit exactly once, sampling only outcomes that say something about the service's RTT.
import type { Clock } from './clock.ts';
import { AdaptiveLimitFullError, ConfigError, isTimeoutError } from './errors.ts';
import { GRADIENT2_DEFAULTS, Gradient2Limit, type Gradient2Options } from './gradient2.ts';
import { type CallState, NO_CANCEL, type Operation, type Outcome, type Policy } from './operation.ts';
import { ADAPTIVE_LIMIT_RANGES } from './ranges.ts';
import { checkBoolean, checkFunction, checkKnownKeys, checkNumber, checkRange } from './validate.ts';

/** Options of the adaptive limit (all optional except the clock; Netflix Gradient2 defaults). */
export interface AdaptiveLimitPolicyOptions extends Partial<Gradient2Options> {
  clock: Clock;
  /** Which errors (and cancel reasons) count as timeouts, sampled as dropped (default isTimeoutError). */
  isTimeout?: (error: unknown) => boolean;
}

/** Counters and the current limit of an AdaptiveLimitPolicy. */
export interface AdaptiveLimitSnapshot {
  /** The limit as a float, and the enforced floor of it. */
  limit: number;
  enforced: number;
  inflight: number;
  acquired: number;
  released: number;
  /** Attempts refused with AdaptiveLimitFullError. */
  rejected: number;
  /** Releases that fed a sample: successes, and timeouts (dropped). */
  samples: number;
  dropped: number;
  /** Releases without a sample: other errors and cancellations. */
  unsampled: number;
  /** Limit updates applied by Gradient2, and samples its guard ignored. */
  updates: number;
  ignored: number;
  longRtt: number;
}

/** Listener of refused attempts. */
export type LimitRejectedListener = (call: CallState, attempt: number) => void;

const KNOWN = ['clock', 'isTimeout', ...Object.keys(GRADIENT2_DEFAULTS)];

/** Validates adaptive-limit options and fills in the defaults; throws ConfigError naming the field. */
export function resolveLimitOptions(
  o: Partial<Gradient2Options>,
  prefix = 'adaptiveLimit',
): Gradient2Options {
  if (typeof o !== 'object' || o === null) throw new ConfigError(prefix, o, 'must be an object of options');
  checkKnownKeys(prefix, o, KNOWN);
  const d = GRADIENT2_DEFAULTS;
  const R = ADAPTIVE_LIMIT_RANGES;
  const minLimit = checkRange(`${prefix}.minLimit`, o.minLimit, R.minLimit) ?? d.minLimit;
  const maxLimit = checkRange(`${prefix}.maxLimit`, o.maxLimit, R.maxLimit) ?? d.maxLimit;
  if (minLimit > maxLimit) {
    throw new ConfigError(`${prefix}.minLimit`, minLimit, `must be <= maxLimit (${maxLimit})`);
  }
  const initialLimit =
    checkNumber(`${prefix}.initialLimit`, o.initialLimit, minLimit, maxLimit) ??
    Math.min(maxLimit, Math.max(minLimit, d.initialLimit));
  return {
    initialLimit,
    minLimit,
    maxLimit,
    smoothing: checkRange(`${prefix}.smoothing`, o.smoothing, R.smoothing) ?? d.smoothing,
    rttTolerance: checkRange(`${prefix}.rttTolerance`, o.rttTolerance, R.rttTolerance) ?? d.rttTolerance,
    longWindow: checkRange(`${prefix}.longWindow`, o.longWindow, R.longWindow) ?? d.longWindow,
    queueSize: checkRange(`${prefix}.queueSize`, o.queueSize, R.queueSize) ?? d.queueSize,
    windowed: checkBoolean(`${prefix}.windowed`, o.windowed) ?? d.windowed,
    windowMs: checkRange(`${prefix}.windowMs`, o.windowMs, R.windowMs) ?? d.windowMs,
    windowMinSamples:
      checkRange(`${prefix}.windowMinSamples`, o.windowMinSamples, R.windowMinSamples) ?? d.windowMinSamples,
    minRttMs: checkRange(`${prefix}.minRttMs`, o.minRttMs, R.minRttMs) ?? d.minRttMs,
  };
}

/** Limits attempts in flight with Gradient2; every attempt through wrap() takes one permit. */
export class AdaptiveLimitPolicy implements Policy {
  readonly clock: Clock;
  readonly settings: Readonly<Gradient2Options>;
  /** The limit arithmetic (read it; feeding it directly bypasses the permits). */
  readonly gradient: Gradient2Limit;
  private readonly isTimeout: (error: unknown) => boolean;
  private inflight = 0;
  private acquired = 0;
  private released = 0;
  private rejected = 0;
  private samples = 0;
  private dropped = 0;
  private unsampled = 0;
  /** @internal listeners (empty arrays cost one length check). */
  readonly rejectedListeners: LimitRejectedListener[] = [];
  readonly limitListeners: ((enforced: number) => void)[] = [];

  constructor(options: AdaptiveLimitPolicyOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('adaptiveLimit', options, 'must be an object with at least a clock');
    }
    const { clock, isTimeout, ...rest } = options;
    if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function') {
      throw new ConfigError('adaptiveLimit.clock', clock, 'must be a Clock ({ now(), setTimer() })');
    }
    this.clock = clock;
    this.isTimeout =
      checkFunction<(e: unknown) => boolean>('adaptiveLimit.isTimeout', isTimeout) ?? isTimeoutError;
    this.settings = Object.freeze(resolveLimitOptions(rest));
    this.gradient = new Gradient2Limit(this.settings);
  }

  /** Wraps an operation: each attempt acquires a permit or is refused at once with AdaptiveLimitFullError. */
  wrap<T>(inner: Operation<T>): Operation<T> {
    return (call, attempt, done) => {
      const enforced = this.gradient.enforced;
      if (this.inflight >= enforced) {
        this.rejected++;
        call.limited++;
        const ls = this.rejectedListeners;
        for (let i = 0; i < ls.length; i++) ls[i](call, attempt);
        done({ ok: false, error: new AdaptiveLimitFullError(enforced, this.inflight) });
        return NO_CANCEL;
      }
      const inflightAtAcquire = ++this.inflight;
      this.acquired++;
      const start = this.clock.now();
      let open = true;
      const innerCancel = inner(call, attempt, (o: Outcome<T>) => {
        if (!open) return;
        open = false;
        if (o.ok) this.release(start, inflightAtAcquire, 1);
        else this.release(start, inflightAtAcquire, this.isTimeout(o.error) ? 2 : 0);
        done(o);
      });
      return (reason) => {
        if (!open) return;
        open = false;
        this.release(start, inflightAtAcquire, this.isTimeout(reason) ? 2 : 0);
        innerCancel(reason);
      };
    };
  }

  // kind: 0 = no sample, 1 = sample, 2 = dropped sample (timeout).
  private release(start: number, inflightAtAcquire: number, kind: 0 | 1 | 2): void {
    this.inflight--;
    this.released++;
    if (kind === 0) {
      this.unsampled++;
      return;
    }
    this.samples++;
    if (kind === 2) this.dropped++;
    const before = this.gradient.enforced;
    const now = this.clock.now();
    this.gradient.onSample(now, now - start, inflightAtAcquire, kind === 2);
    const after = this.gradient.enforced;
    if (after !== before) {
      const ls = this.limitListeners;
      for (let i = 0; i < ls.length; i++) ls[i](after);
    }
  }

  /** Listens to refused attempts; returns an unsubscribe function. */
  onRejected(listener: LimitRejectedListener): () => void {
    this.rejectedListeners.push(listener);
    return () => remove(this.rejectedListeners, listener);
  }

  /** Listens to changes of the enforced limit; returns an unsubscribe function. */
  onLimitChanged(listener: (enforced: number) => void): () => void {
    this.limitListeners.push(listener);
    return () => remove(this.limitListeners, listener);
  }

  /** Attempts holding a permit now. */
  get inFlight(): number {
    return this.inflight;
  }

  /** Current counters and limit (a copy). */
  snapshot(): AdaptiveLimitSnapshot {
    const g = this.gradient;
    return {
      limit: g.limit,
      enforced: g.enforced,
      inflight: this.inflight,
      acquired: this.acquired,
      released: this.released,
      rejected: this.rejected,
      samples: this.samples,
      dropped: this.dropped,
      unsampled: this.unsampled,
      updates: g.updates,
      ignored: g.ignored,
      longRtt: g.longRtt,
    };
  }
}

/** Makes an AdaptiveLimitPolicy (Gradient2, windowed samples, reject at once). */
export function adaptiveLimit(options: AdaptiveLimitPolicyOptions): AdaptiveLimitPolicy {
  return new AdaptiveLimitPolicy(options);
}

function remove<L>(list: L[], listener: L): void {
  const i = list.indexOf(listener);
  if (i >= 0) list.splice(i, 1);
}
