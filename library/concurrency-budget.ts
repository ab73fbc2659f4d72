// The concurrency budget (Envoy's retry budget, failsafe-go's Budget): bounds hedges *in flight* across all
// calls of a policy by a share of the calls in flight, so it follows load as it is now, not over a window.

/**
 * Hedges in flight ≤ max(min, floor(percent % of calls in flight)). The share is kept in thousandths of a
 * percent so the floor is integer arithmetic (no 0.57 × 100 = 56.99… surprises).
 */
export class ConcurrencyBudget {
  readonly percent: number;
  readonly min: number;
  private readonly milli: number;
  private n = 0;

  constructor(percent: number, min: number) {
    this.percent = percent;
    this.min = min;
    this.milli = Math.round(percent * 1000);
  }

  /** Hedges now in flight. */
  get inflight(): number {
    return this.n;
  }

  /** The cap with `calls` in flight. */
  limit(calls: number): number {
    return Math.max(this.min, Math.floor((this.milli * calls) / 100_000));
  }

  /** Counts one more hedge in flight if the cap allows it; returns whether it did. */
  tryAcquire(calls: number): boolean {
    if (this.n >= this.limit(calls)) return false;
    this.n++;
    return true;
  }

  /** A hedge ended or was cancelled. */
  release(): void {
    if (this.n > 0) this.n--;
  }

  /** Hedges the cap allows right now with `calls` in flight. */
  available(calls: number): number {
    return Math.max(0, this.limit(calls) - this.n);
  }
}
