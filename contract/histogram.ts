// The one HDR histogram wrapper (hdr-histogram-js): ms in, integer microseconds inside, 3 significant digits,
// up to 1 h. Row percentiles, the load generator's live p99 and the server's hold-time error all use it, so
// they bucket and clamp values the same way; histograms are merged, never averaged.

import * as hdr from 'hdr-histogram-js';
import { percentileRank } from './percentile.ts';

/** Highest latency we can record: 1 hour, in microseconds. Larger values are clamped (and counted). */
const MAX_US = 3_600_000_000;

/** A latency histogram in ms, stored in integer microseconds with 3 significant digits. */
export class LatencyHistogram {
  readonly h: hdr.Histogram;
  clamped = 0;

  constructor() {
    this.h = hdr.build({
      bitBucketSize: 64,
      lowestDiscernibleValue: 1,
      highestTrackableValue: MAX_US,
      numberOfSignificantValueDigits: 3,
      useWebAssembly: false,
    });
  }

  /** Records one latency in ms (negative values are recorded as 0). */
  record(ms: number): void {
    let us = Math.round(ms * 1000);
    if (us < 0) us = 0;
    if (us > MAX_US) {
      us = MAX_US;
      this.clamped++;
    }
    this.h.recordValue(us);
  }

  get count(): number {
    return this.h.totalCount;
  }

  /**
   * The p-th percentile (0 < p ≤ 100) in ms: the top of the bucket that holds the value of rank
   * percentileRank (contract/percentile.ts); NaN when empty.
   */
  percentile(p: number): number {
    const n = this.h.totalCount;
    if (n === 0) return Number.NaN;
    // hdr-histogram-js ranks ⌈p/100 · n⌉ with float guards of its own: asked for the middle of our rank
    // (r − ½ of n), it has no whole number to round across and lands on rank r itself.
    return this.h.getValueAtPercentile((100 * (percentileRank(n, p) - 0.5)) / n) / 1000;
  }

  get maxMs(): number {
    return this.h.totalCount === 0 ? Number.NaN : this.h.maxValue / 1000;
  }

  get meanMs(): number {
    return this.h.totalCount === 0 ? Number.NaN : this.h.mean / 1000;
  }

  /** Empties the histogram (a new point on a long-lived server). */
  reset(): void {
    this.h.reset();
    this.clamped = 0;
  }

  /** Adds every value of `other` into this one. */
  merge(other: LatencyHistogram): void {
    this.h.add(other.h);
    this.clamped += other.clamped;
  }
}
