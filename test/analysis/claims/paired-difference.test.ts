// The interval of a percentile difference paired by call: exact where the pairing makes it so, narrow where
// two points share their random numbers, as wide as independent samples need where they share none, and
// covering the true difference about 95 % of the time (a fixed set of seeded samples: no flakiness).
import { describe, expect, it } from 'vitest';
import { ClaimPoints } from '../../../analysis/claims/claim-points.ts';
import { latencyCheck } from '../../../analysis/claims/relations.ts';
import { type CallSample, pairedDifferenceInterval } from '../../../analysis/judge/block-bootstrap.ts';
import { percentileOf } from '../../../contract/index.ts';
import { uniformOpen } from '../../../model/index.ts';
import { row } from './study-rows.ts';

/** n calls from index `first`, each latency `f(u, v)` of two uniforms keyed by (seed, call). */
function sample(n: number, seed: number, f: (u: number, v: number) => number, first = 100): CallSample {
  const call = new Float64Array(n);
  const latencyMs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    call[i] = first + i;
    latencyMs[i] = f(uniformOpen(seed, 1, first + i, 0), uniformOpen(seed, 2, first + i, 0));
  }
  return { call, latencyMs };
}
const exp = (mean: number) => (u: number) => -mean * Math.log(u);

describe('pairedDifferenceInterval', () => {
  it('is exactly the shift when one point is the other plus a constant, call by call', () => {
    const a = sample(5000, 1, exp(10));
    const b = { call: a.call, latencyMs: a.latencyMs.map((x) => x + 3) };
    expect(pairedDifferenceInterval(a, b, 99)).toEqual({ low: -3, high: -3 });
    expect(pairedDifferenceInterval(a, a, 99.9)).toEqual({ low: 0, high: 0 });
  });

  it('is far narrower than the two intervals apart when the points share their random numbers', () => {
    // B is A with a little noise of its own: the situation of two configurations under common random numbers.
    const a = sample(20_000, 2, (u) => exp(10)(u));
    const b = sample(20_000, 2, (u, v) => exp(10)(u) + 0.2 * v);
    const paired = pairedDifferenceInterval(a, b, 99)!;
    const indep = pairedDifferenceInterval(
      a,
      sample(20_000, 3, (u, v) => exp(10)(u) + 0.2 * v),
      99,
    )!;
    expect(paired.high - paired.low).toBeLessThan(0.3);
    expect(indep.high - indep.low).toBeGreaterThan(10 * (paired.high - paired.low));
  });

  it('covers the true difference of independent samples about 95 % of the time', () => {
    // p99 of Exp(10) and Exp(12): 10·ln 100 and 12·ln 100, so the difference is −2·ln 100.
    const truth = -2 * Math.log(100);
    let covered = 0;
    const reps = 60;
    for (let s = 0; s < reps; s++) {
      const iv = pairedDifferenceInterval(
        sample(4000, 10 + s, exp(10)),
        sample(4000, 1000 + s, exp(12)),
        99,
        400,
      )!;
      if (iv.low <= truth && truth <= iv.high) covered++;
    }
    expect(covered / reps).toBeGreaterThanOrEqual(0.85);
    expect(covered / reps).toBeLessThanOrEqual(1);
  });

  it('is the same every time, whatever the order of the calls', () => {
    const a = sample(3000, 4, exp(10));
    const b = sample(3000, 5, exp(10));
    const reversed = { call: a.call.slice().reverse(), latencyMs: a.latencyMs.slice().reverse() };
    expect(pairedDifferenceInterval(a, b, 99.9)).toEqual(pairedDifferenceInterval(reversed, b, 99.9));
  });

  it('takes each side over its own calls when some calls are missing on one side', () => {
    const a = sample(4000, 6, exp(10));
    const keep = (i: number) => i % 10 !== 0;
    const b = {
      call: a.call.filter((_, i) => keep(i)),
      latencyMs: a.latencyMs.filter((_, i) => keep(i)),
    };
    const iv = pairedDifferenceInterval(a, b, 50)!;
    const d = percentileOf(a.latencyMs, 50) - percentileOf(b.latencyMs, 50);
    expect(iv.low).toBeLessThanOrEqual(d + 0.5);
    expect(iv.high).toBeGreaterThanOrEqual(d - 0.5);
    expect(pairedDifferenceInterval({ call: new Float64Array(), latencyMs: new Float64Array() }, b, 50)).toBe(
      null,
    );
  });
});

describe('a latency check on two real points with their calls', () => {
  it('decides "same" paired by call where the two intervals apart leave it undecided', () => {
    const a = sample(20_000, 7, (u) => exp(10)(u));
    const b = sample(20_000, 7, (u, v) => exp(10)(u) + 0.1 * v);
    const p = (s: CallSample) => percentileOf(s.latencyMs, 99);
    const ci = (s: CallSample) => ({ p99_ms: { low: p(s) - 2, high: p(s) + 2 } });
    const points = (paired: boolean) =>
      new ClaimPoints('real', 1, [
        row('a', 0.5, 'ignore', {
          source: 'real',
          p99_ms: p(a),
          ci: ci(a),
          ...(paired ? { sample: () => a } : {}),
        }),
        row('b', 0.5, 'ignore', {
          source: 'real',
          p99_ms: p(b),
          ci: ci(b),
          ...(paired ? { sample: () => b } : {}),
        }),
      ]);
    const A = { config: 'a', load: 0.5, cancellation: 'ignore' } as const;
    const B = { config: 'b', load: 0.5, cancellation: 'ignore' } as const;
    const unpaired = latencyCheck(points(false), A, B, 'p99_ms', 'same');
    expect(unpaired.verdict).toBe('inconclusive');
    const paired = latencyCheck(points(true), A, B, 'p99_ms', 'same');
    expect(paired.verdict).toBe('holds');
    expect(paired.text).toMatch(/paired by call/);
  });
});
