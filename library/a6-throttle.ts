// gRFC A6's retryThrottling token bucket: one per channel (per server name), shared by every call through
// it. Tokens start at maxTokens and stay in [0, maxTokens]; a failed attempt (non-fatal status) takes 1, a
// success adds tokenRatio; hedges (and retries) are allowed only while tokens > maxTokens / 2.
import { ConfigError } from './errors.ts';

/** retryThrottling as the service config writes it. */
export interface A6ThrottleOptions {
  /** (0, 1000]. */
  maxTokens: number;
  /** > 0, at most 3 decimal places. */
  tokenRatio: number;
}

/** Checks the options against A6's rules; throws ConfigError naming the field and the rule. */
export function checkA6Throttle(o: A6ThrottleOptions, prefix = 'retryThrottling'): void {
  if (typeof o !== 'object' || o === null) {
    throw new ConfigError(prefix, o, 'must be an object { maxTokens, tokenRatio } (gRFC A6)');
  }
  const { maxTokens, tokenRatio } = o;
  if (typeof maxTokens !== 'number' || !(maxTokens > 0 && maxTokens <= 1000)) {
    throw new ConfigError(`${prefix}.maxTokens`, maxTokens, 'gRFC A6 requires maxTokens in (0, 1000]');
  }
  if (typeof tokenRatio !== 'number' || !(tokenRatio > 0) || !Number.isFinite(tokenRatio)) {
    throw new ConfigError(`${prefix}.tokenRatio`, tokenRatio, 'gRFC A6 requires tokenRatio > 0');
  }
  if (Math.abs(tokenRatio * 1000 - Math.round(tokenRatio * 1000)) > 1e-9 * Math.max(1, tokenRatio * 1000)) {
    throw new ConfigError(
      `${prefix}.tokenRatio`,
      tokenRatio,
      'gRFC A6 allows at most 3 decimal places in tokenRatio (e.g. 0.1 or 0.125)',
    );
  }
}

/** The token bucket of one channel. */
export class A6Throttle {
  readonly maxTokens: number;
  readonly tokenRatio: number;
  private t: number;

  constructor(o: A6ThrottleOptions) {
    checkA6Throttle(o);
    this.maxTokens = o.maxTokens;
    this.tokenRatio = o.tokenRatio;
    this.t = o.maxTokens;
  }

  /** Tokens now. */
  get tokens(): number {
    return this.t;
  }

  /** True while a hedge or retry may be sent (tokens above half the bucket). */
  allows(): boolean {
    return this.t > this.maxTokens / 2;
  }

  /** An attempt failed with a non-fatal (or retryable) status. */
  failed(): void {
    this.t = Math.max(0, this.t - 1);
  }

  /** One token spent on something other than a failure (a HedgePolicy's tokens budget: a hedge sent). */
  take(): void {
    this.failed();
  }

  /** Hedges the bucket allows before it reaches half: each takes 1 while tokens > maxTokens / 2. */
  allowance(): number {
    return Math.max(0, Math.ceil(this.t - this.maxTokens / 2));
  }

  /** A call succeeded. */
  succeeded(): void {
    this.t = Math.min(this.maxTokens, this.t + this.tokenRatio);
  }
}
