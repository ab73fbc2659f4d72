// The latency histogram behind percentile delays: log-linear buckets within 1 % of every value from 1 µs to
// beyond an hour, nearest-rank percentiles, and a window that rotates slot by slot and forgets old samples.
import { describe, expect, it } from 'vitest';
import { BUCKET_VALUE, BUCKETS, bucketOf, WINDOW_SLOTS, WindowedHistogram } from '../../library/index.ts';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('log-linear buckets', () => {
  it('hold every value from 1 µs to 70 min within 0.8 % of their midpoint, in order', () => {
    const rnd = lcg(1);
    let worst = 0;
    for (let i = 0; i < 200_000; i++) {
      const v = 2 ** (-10 + rnd() * 32); // 1 µs .. 2^22 ms, log-uniform
      const rel = Math.abs(BUCKET_VALUE[bucketOf(v)] - v) / v;
      if (rel > worst) worst = rel;
    }
    expect(worst).toBeLessThanOrEqual(1 / 128);
    const edges = [0, 0.0005, 2 ** -10, 0.5, 1, 1.0156, 20, 20.3, 1000, 3_600_000, 2 ** 22 - 1];
    for (let i = 1; i < edges.length; i++)
      expect(bucketOf(edges[i])).toBeGreaterThanOrEqual(bucketOf(edges[i - 1]));
    expect(bucketOf(3_600_000)).toBeLessThan(BUCKETS - 1); // one hour still has its own bucket
    expect(bucketOf(2 ** 22)).toBe(BUCKETS - 1);
    expect(bucketOf(1e12)).toBe(BUCKETS - 1);
    expect(bucketOf(Number.NaN)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(BUCKETS).toBe(2050);
  });
});

describe('WindowedHistogram', () => {
  it('reads nearest-rank percentiles within 1 % of the exact ones', () => {
    const rnd = lcg(2);
    const h = new WindowedHistogram(10_000);
    h.advance(0);
    const xs: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const v = Math.exp(Math.log(10) + 0.6 * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(6.2832 * rnd()));
      xs.push(v);
      h.add(v);
    }
    expect(h.advance(2000)).toBe(true);
    xs.sort((a, b) => a - b);
    for (const q of [1, 10, 50, 90, 95, 99, 99.9]) {
      // Nearest rank in integer arithmetic: (99.9 / 100) · 5000 is 4995.000000000001 in floating point.
      const exact = xs[Math.ceil(Math.round(q * 1000 * xs.length) / 100_000) - 1];
      expect(Math.abs(h.percentile(q) / exact - 1)).toBeLessThanOrEqual(0.01);
    }
    expect(h.count).toBe(5000);
    expect(h.min).toBe(xs[0]);
    expect(h.max).toBe(xs[xs.length - 1]);
  });

  it('a constant reads back exactly (clamped to the window’s min and max)', () => {
    const h = new WindowedHistogram(1000);
    h.advance(0);
    for (let i = 0; i < 10; i++) h.add(12.3);
    h.advance(200);
    expect(h.percentile(1)).toBe(12.3);
    expect(h.percentile(99.99)).toBe(12.3);
  });

  it('counts only completed slots, and forgets a slot windowMs after it completed', () => {
    // windowMs 1000 → 5 slots of 200 ms; the window at t is [start of t's slot − 1000, start of t's slot).
    expect(WINDOW_SLOTS).toBe(5);
    const h = new WindowedHistogram(1000);
    h.advance(50);
    for (let i = 0; i < 4; i++) h.add(10); // slot [0, 200)
    expect(h.count).toBe(0); // the slot being filled is not in the window yet
    expect(h.percentile(50)).toBeNaN();
    expect(h.advance(199)).toBe(false);
    expect(h.advance(200)).toBe(true);
    expect(h.count).toBe(4);
    h.advance(450);
    for (let i = 0; i < 6; i++) h.add(50); // slot [400, 600)
    h.advance(600);
    expect(h.count).toBe(10);
    expect(Math.abs(h.percentile(40) / 10 - 1)).toBeLessThan(0.01); // a bucket's midpoint: 10.0625
    expect(h.percentile(50)).toBe(50);
    h.advance(1199);
    expect(h.count).toBe(10); // [0, 1000): slot 0 still in
    h.advance(1200);
    expect(h.count).toBe(6); // [200, 1200): slot 0 forgotten
    expect(h.percentile(1)).toBe(50);
    expect(h.min).toBe(50);
    h.advance(1600);
    expect(h.count).toBe(0); // [600, 1600)
    expect(h.min).toBeNaN();
  });

  it('a jump longer than the window clears it; time running backwards changes nothing', () => {
    const h = new WindowedHistogram(1000);
    h.advance(0);
    h.add(5);
    h.advance(200);
    expect(h.count).toBe(1);
    h.add(7); // slot [200, 400)
    expect(h.advance(100)).toBe(false);
    h.advance(5000);
    expect(h.count).toBe(0);
    h.add(9);
    h.advance(5200);
    expect(h.count).toBe(1);
    expect(h.percentile(50)).toBe(9);
  });
});
