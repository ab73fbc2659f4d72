// The percentile interval: it covers the true percentile of a known distribution ~95 % of the time, its
// stated coverage is the exact binomial probability, and small samples give an open interval, said so.

import { describe, expect, it } from 'vitest';
import { AnalysisArgumentError } from '../../analysis/errors.ts';
import { percentileInterval, percentileRanks } from '../../analysis/judge/percentile-ci.ts';
import { LatencyHistogram, percentileOfSorted } from '../../contract/index.ts';
import { uniformOpen } from '../../model/index.ts';

/** n draws of Exp(1) for a seed, ascending (counter-based, so every run sees the same samples). */
function expSample(seed: number, n: number): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = -Math.log(uniformOpen(seed, 9, i, 0));
  return x.sort();
}

/** The exact p-quantile of Exp(1). */
const trueQuantile = (p: number) => -Math.log(1 - p / 100);

function coverage(p: number, n: number, seeds: number): number {
  let hit = 0;
  for (let s = 1; s <= seeds; s++) {
    const iv = percentileInterval(expSample(s, n), p)!;
    if (iv.low <= trueQuantile(p) && trueQuantile(p) <= iv.high) hit++;
  }
  return hit / seeds;
}

/** P(l ≤ B ≤ u − 1) for B ~ Binomial(n, q) by direct summation with exact binomial coefficients. */
function exactCoverage(n: number, q: number, l: number, u: number): number {
  let sum = 0;
  let c = 1; // C(n, k), built incrementally
  for (let k = 0; k <= n; k++) {
    if (k > 0) c = (c * (n - k + 1)) / k;
    if (k >= l && k <= u - 1) sum += c * q ** k * (1 - q) ** (n - k);
  }
  return sum;
}

describe('percentileInterval coverage on Exp(1) samples, 400 seeds each', () => {
  it.each([
    [50, 2000],
    [99, 2000],
    [99.9, 20000],
  ])('p%s from %s values covers the true quantile 92–98 %% of the time', (p, n) => {
    const c = coverage(p, n, 400);
    expect(c).toBeGreaterThanOrEqual(0.92);
    expect(c).toBeLessThanOrEqual(0.98);
  });
});

describe('percentileRanks', () => {
  it('states the exact binomial coverage, at least 95 %, for small samples', () => {
    for (const [n, p] of [
      [20, 50],
      [60, 90],
      [500, 99],
    ] as const) {
      const r = percentileRanks(n, p);
      expect(r.lowOpen || r.highOpen).toBe(false);
      expect(r.coverage).toBeGreaterThanOrEqual(0.95);
      expect(r.coverage).toBeCloseTo(exactCoverage(n, p / 100, r.lowRank, r.highRank), 10);
      // Equal tails: moving either end inward would drop a tail above 2.5 %.
      expect(exactCoverage(n, p / 100, r.lowRank + 1, r.highRank)).toBeLessThan(
        exactCoverage(n, p / 100, r.lowRank, r.highRank),
      );
    }
  });

  it('median of 20: the classic ranks 6 and 15', () => {
    const r = percentileRanks(20, 50);
    expect([r.lowRank, r.highRank]).toEqual([6, 15]);
  });

  it('works for a 200 000-call point without overflow', () => {
    const r = percentileRanks(180_000, 99.9);
    expect(r.highOpen).toBe(false);
    // ±1.96 sd of Binomial(180000, 0.999) ≈ ±26 ranks around 179 820.
    expect(r.lowRank).toBeGreaterThan(179_780);
    expect(r.highRank).toBeLessThan(179_860);
    expect(r.coverage).toBeGreaterThanOrEqual(0.95);
  });

  it('rejects a percentile outside (0, 100) with a coded error naming the value', () => {
    expect(() => percentileRanks(100, 100)).toThrow(AnalysisArgumentError);
    expect(() => percentileRanks(100, 0)).toThrow(/p = 0/);
    try {
      percentileRanks(0, 50);
    } catch (e) {
      expect((e as AnalysisArgumentError).code).toBe('HB_ANALYSIS_ARGUMENT');
    }
  });
});

describe('edge cases', () => {
  it('p99.9 from 500 values: the interval reaches the sample max and says it is open above', () => {
    const x = expSample(3, 500);
    const iv = percentileInterval(x, 99.9)!;
    expect(iv.highOpen).toBe(true);
    expect(iv.high).toBe(x[499]);
    expect(iv.highRank).toBe(500);
    expect(iv.coverage).toBeLessThan(0.95);
    expect(iv.lowOpen).toBe(false);
  });

  it('p50 of a single value: open on both sides', () => {
    const iv = percentileInterval([4.2], 50)!;
    expect([iv.low, iv.high, iv.estimate, iv.lowOpen, iv.highOpen]).toEqual([4.2, 4.2, 4.2, true, true]);
  });

  it('an empty sample has no interval', () => {
    expect(percentileInterval([], 99)).toBeNull();
  });

  it('the estimate takes the rank HdrHistogram reports', () => {
    const x = expSample(5, 1234).map((v) => Math.round(v * 1000) / 1000 + 1);
    const h = new LatencyHistogram();
    for (const v of x) h.record(v);
    for (const p of [50, 90, 99, 99.9]) {
      // HDR keeps 3 significant digits: within 0.1 % of the exact order statistic.
      expect(Math.abs(h.percentile(p) - percentileOfSorted(x, p)) / percentileOfSorted(x, p)).toBeLessThan(
        0.001,
      );
    }
  });
});
