// The hold-time error of served attempts (actual hold − intended service time), in an HDR histogram:
// the evidence that the real server holds workers as long as the model says.

import { LatencyHistogram } from '../contract/index.ts';

/** Percentiles of the hold-time error in ms (null when nothing was served since the last reset). */
export interface HoldErrorSummary {
  count: number;
  /** Holds shorter than intended (recorded as 0); the clock never fires early, so this must stay 0. */
  early: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
}

/** Records hold-time errors (ms, ≥ 0 by construction: the clock never fires early). */
export class HoldTimeHistogram {
  private h = new LatencyHistogram();
  private early = 0;

  /** Records one error in ms. */
  record(errorMs: number): void {
    if (errorMs < 0) this.early++;
    this.h.record(errorMs);
  }

  reset(): void {
    this.h.reset();
    this.early = 0;
  }

  summary(): HoldErrorSummary {
    const h = this.h;
    const n = h.count;
    if (n === 0) return { count: 0, early: 0, p50: null, p90: null, p99: null, p999: null, max: null };
    const max = h.maxMs;
    // HDR reports a bucket's upper edge; never let a percentile exceed the exact maximum.
    const at = (p: number): number => Math.min(h.percentile(p), max);
    return { count: n, early: this.early, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max };
  }
}
