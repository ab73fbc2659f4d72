// The one percentile rule: nearest rank max(1, min(n, ⌈q/100 · n⌉)), on hand-made samples, and the histogram
// (points.csv's path) landing on the same rank as the sorted sample (attribution.csv's path).

import { describe, expect, it } from 'vitest';
import { LatencyHistogram, percentileOfSorted, percentileRank } from '../../contract/index.ts';

describe('percentileRank', () => {
  it('takes ⌈q/100 · n⌉', () => {
    expect(percentileRank(3780, 99)).toBe(3743); // ⌈3742.2⌉
    expect(percentileRank(100, 99)).toBe(99);
    expect(percentileRank(160, 99)).toBe(159); // ⌈158.4⌉: the rank round(q·n) put one lower
    expect(percentileRank(2700, 99.9)).toBe(2698); // ⌈2697.3⌉
    expect(percentileRank(1000, 50)).toBe(500);
  });

  it('one value is rank 1; p100 is the largest; a tiny p is the smallest', () => {
    for (const p of [0.1, 50, 99, 99.9, 100]) expect(percentileRank(1, p)).toBe(1);
    for (const n of [1, 2, 3, 100, 3780]) expect(percentileRank(n, 100)).toBe(n);
    expect(percentileRank(100, 0.1)).toBe(1);
  });

  it('does not step past a whole q/100 · n that floating point lands a hair above', () => {
    // 99.9/100 · 1000 and 7/100 · 100 read 999.0000000000001 and 7.000000000000001.
    expect(percentileRank(1000, 99.9)).toBe(999);
    expect(percentileRank(100, 7)).toBe(7);
    expect(percentileRank(10_000, 99.9)).toBe(9990);
    expect(percentileRank(50_000_000, 99.9)).toBe(49_950_000);
  });
});

describe('percentileOfSorted', () => {
  it('is the value of the rank', () => {
    const xs = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOfSorted(xs, 50)).toBe(50);
    expect(percentileOfSorted(xs, 99)).toBe(99);
    expect(percentileOfSorted(xs, 100)).toBe(100);
    expect(percentileOfSorted(xs, 0.1)).toBe(1);
    expect(percentileOfSorted([], 50)).toBeNaN();
    const ys = Float64Array.from({ length: 3780 }, (_, i) => i + 1);
    expect(percentileOfSorted(ys, 99)).toBe(3743);
  });
});

describe('the histogram takes the same rank as the sorted sample', () => {
  // Distinct whole microseconds below 2 048 are exact in a 3-significant-digit HDR histogram, so the two
  // paths must give the very same value; the values go in out of order.
  const sample = (n: number) => Float64Array.from({ length: n }, (_, i) => (((i * 7919) % n) + 1) / 1000);

  it.each([1, 2, 3, 100, 160, 999, 1000, 2000])('n = %i', (n) => {
    const xs = sample(n);
    const h = new LatencyHistogram();
    for (const x of xs) h.record(x);
    const sorted = Float64Array.from(xs).sort();
    for (const p of [0.1, 7, 25, 50, 90, 99, 99.5, 99.9, 100]) {
      expect(h.percentile(p), `p${p}`).toBe(percentileOfSorted(sorted, p));
      expect(sorted[percentileRank(n, p) - 1]).toBe(percentileRank(n, p) / 1000);
    }
  });

  it('hdr-histogram-js on its own ranks ⌈q/100 · n⌉ too', () => {
    const xs = sample(2000);
    const h = new LatencyHistogram();
    for (const x of xs) h.record(x);
    const sorted = Float64Array.from(xs).sort();
    for (const p of [50, 90, 99, 99.9]) {
      expect(h.h.getValueAtPercentile(p) / 1000, `p${p}`).toBe(percentileOfSorted(sorted, p));
    }
  });
});
