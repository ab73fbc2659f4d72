// The counter-based generator: pure, uniform enough, streams independent; service times and arrivals
// follow the model and are the same for the same (seed, call, attempt).
import { describe, expect, it } from 'vitest';
import {
  ArrivalSchedule,
  arrivalRatePerMs,
  DEFAULT_MODEL,
  meanServiceMs,
  serviceTimeMs,
} from '../../model/index.ts';
import { STREAM, uniform, uniformOpen } from '../../model/rng.ts';

describe('uniform', () => {
  it('is a pure function of (seed, stream, call, attempt), in [0, 1)', () => {
    const a = [uniform(1, 2, 3, 4), uniform(1, 2, 3, 4)];
    expect(a[0]).toBe(a[1]);
    const others = [uniform(2, 2, 3, 4), uniform(1, 3, 3, 4), uniform(1, 2, 4, 4), uniform(1, 2, 3, 5)];
    for (const o of others) expect(o).not.toBe(a[0]);
    // large seeds use their high bits too
    expect(uniform(2 ** 40 + 1, 1, 0, 0)).not.toBe(uniform(1, 1, 0, 0));
    expect(uniformOpen(1, 1, 0, 0)).toBeGreaterThan(0);
  });

  it('passes a chi-square test and shows no lag-1 or cross-stream correlation', () => {
    const n = 200_000;
    const bins = new Array(50).fill(0);
    let corrCall = 0;
    let corrStream = 0;
    let outside = 0;
    for (let i = 0; i < n; i++) {
      const u = uniform(9, STREAM.arrival, i, 0);
      if (!(u >= 0 && u < 1)) outside++;
      bins[Math.floor(u * 50)]++;
      corrCall += (u - 0.5) * (uniform(9, STREAM.arrival, i + 1, 0) - 0.5);
      corrStream += (uniform(9, STREAM.serviceA, i, 1) - 0.5) * (uniform(9, STREAM.serviceB, i, 1) - 0.5);
    }
    expect(outside).toBe(0);
    const e = n / 50;
    const chi2 = bins.reduce((s, b) => s + (b - e) ** 2 / e, 0);
    // 49 degrees of freedom: P(chi2 > 85) < 0.001
    expect(chi2).toBeLessThan(85);
    // correlation coefficient (×12 normalises the variance of a uniform); sd ≈ 1/sqrt(n) = 0.0022
    expect(Math.abs((corrCall / n) * 12)).toBeLessThan(0.01);
    expect(Math.abs((corrStream / n) * 12)).toBeLessThan(0.01);
  });
});

describe('serviceTimeMs', () => {
  it('matches the analytic mean, the median and the straggler share of the model', () => {
    const n = 200_000;
    let sum = 0;
    let stragglers = 0;
    const body: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = serviceTimeMs(DEFAULT_MODEL, 3, i, 1);
      sum += s;
      if (s >= 100) stragglers++;
      else body.push(s);
    }
    body.sort((x, y) => x - y);
    // sd of S ≈ 28 ms (stragglers), so the standard error of the mean is ≈ 0.45 %: allow 3 sd
    expect(Math.abs(sum / n / meanServiceMs(DEFAULT_MODEL) - 1)).toBeLessThan(0.014);
    expect(stragglers / n).toBeCloseTo(0.02, 2);
    expect(body[Math.floor(body.length / 2)]).toBeCloseTo(10, 1);
    expect(meanServiceMs(DEFAULT_MODEL)).toBeCloseTo(0.98 * 10 * Math.exp(0.03125) + 0.02 * 200, 10);
  });

  it('gives every attempt of a call its own draw, the same on every evaluation', () => {
    expect(serviceTimeMs(DEFAULT_MODEL, 1, 5, 1)).toBe(serviceTimeMs(DEFAULT_MODEL, 1, 5, 1));
    expect(serviceTimeMs(DEFAULT_MODEL, 1, 5, 1)).not.toBe(serviceTimeMs(DEFAULT_MODEL, 1, 5, 2));
  });

  it('supports textbook overrides: exponential with a mean, constant', () => {
    const exp = { ...DEFAULT_MODEL, service: { kind: 'exponential' as const, meanMs: 4 } };
    let sum = 0;
    for (let i = 0; i < 100_000; i++) sum += serviceTimeMs(exp, 1, i, 1);
    expect(sum / 100_000 / 4).toBeCloseTo(1, 1);
    expect(meanServiceMs(exp)).toBe(4);
    const c = { ...DEFAULT_MODEL, service: { kind: 'constant' as const, ms: 7 } };
    expect(serviceTimeMs(c, 1, 2, 3)).toBe(7);
    expect(meanServiceMs(c)).toBe(7);
  });
});

describe('ArrivalSchedule', () => {
  it('has rate load·workers/E[S] and is a pure function of (seed, i)', () => {
    const rate = arrivalRatePerMs(0.5, DEFAULT_MODEL);
    expect(rate).toBeCloseTo((0.5 * 16) / meanServiceMs(DEFAULT_MODEL), 12);
    const a = new ArrivalSchedule(4, rate, 100_000);
    const b = new ArrivalSchedule(4, rate, 100_000);
    // read in different orders: same doubles
    const last = a.at(99_999);
    for (let i = 0; i < 100_000; i += 997) expect(b.at(i)).toBe(a.at(i));
    expect(b.at(99_999)).toBe(last);
    expect(last * rate).toBeGreaterThan(100_000 * 0.98);
    expect(last * rate).toBeLessThan(100_000 * 1.02);
    expect(new ArrivalSchedule(5, rate, 10).at(3)).not.toBe(a.at(3));
    expect(() => a.at(100_000)).toThrow(RangeError);
  });
});
