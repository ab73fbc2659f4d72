// The one percentile rule: nearest rank max(1, round(q·n)), as HdrHistogram counts; the load generator's
// self-check uses it too (it used ceil(q·n), one rank higher when q·n has a fraction below one half).

import { describe, expect, it } from 'vitest';
import { percentileOfSorted } from '../../contract/index.ts';

describe('percentileOfSorted', () => {
  it('takes the nearest rank', () => {
    const xs = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOfSorted(xs, 50)).toBe(50);
    expect(percentileOfSorted(xs, 99)).toBe(99);
    expect(percentileOfSorted(xs, 100)).toBe(100);
    expect(percentileOfSorted(xs, 0.1)).toBe(1);
    expect(percentileOfSorted([], 50)).toBeNaN();
  });

  it('rounds q·n to the nearest rank (158.4 → 158, where ceil gave 159)', () => {
    const xs = Float64Array.from({ length: 160 }, (_, i) => i + 1);
    expect(percentileOfSorted(xs, 99)).toBe(158);
  });
});
