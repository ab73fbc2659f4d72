// The self-check's statistics on synthetic data: Poisson sends pass; evenly spaced, uniform-gap, late
// or slow sends fail with a reason.
import { describe, expect, it } from 'vitest';
import {
  AD_CRITICAL_CASE0,
  andersonDarlingExponential,
  strideSample,
} from '../../loadgen/anderson-darling.ts';
import { selfCheck } from '../../loadgen/index.ts';
import { ArrivalSchedule } from '../../model/index.ts';

const RATE = 2; // calls per ms

function poissonTimes(n: number, seed: number): Float64Array {
  const s = new ArrivalSchedule(seed, RATE, n);
  return Float64Array.from({ length: n }, (_, i) => s.at(i));
}

describe('Anderson–Darling against Exp(rate known)', () => {
  it('accepts exponential gaps of the right rate for most seeds (about 1 % false alarms at the 1 % value)', () => {
    let rejected = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const t = poissonTimes(1001, seed);
      const gaps = Float64Array.from({ length: 1000 }, (_, i) => t[i + 1] - t[i]);
      if (andersonDarlingExponential(gaps, RATE) >= AD_CRITICAL_CASE0['0.01']) rejected++;
    }
    expect(rejected).toBeLessThanOrEqual(3);
  });

  it('rejects uniform gaps with the same mean, constant gaps, and exponential gaps of the wrong rate', () => {
    const n = 1000;
    const uniformGaps = Float64Array.from({ length: n }, (_, i) => (((i * 7919) % n) / n) * (2 / RATE));
    const constant = new Float64Array(n).fill(1 / RATE);
    const t = poissonTimes(n + 1, 3);
    const slower = Float64Array.from({ length: n }, (_, i) => (t[i + 1] - t[i]) * 1.2);
    expect(andersonDarlingExponential(uniformGaps, RATE)).toBeGreaterThan(2 * AD_CRITICAL_CASE0['0.01']);
    expect(andersonDarlingExponential(constant, RATE)).toBeGreaterThan(2 * AD_CRITICAL_CASE0['0.01']);
    expect(andersonDarlingExponential(slower, RATE)).toBeGreaterThan(2 * AD_CRITICAL_CASE0['0.01']);
  });

  it('is NaN below 5 gaps and finite with zero gaps', () => {
    expect(andersonDarlingExponential([1, 2], RATE)).toBeNaN();
    expect(Number.isFinite(andersonDarlingExponential([0, 0, 0.5, 1, 2, 0.1], RATE))).toBe(true);
  });

  it('stride sampling keeps at most max values, spread over the whole input', () => {
    const xs = Float64Array.from({ length: 10_000 }, (_, i) => i);
    const s = strideSample(xs, 1000);
    expect(s.length).toBe(1000);
    expect(s[0]).toBe(0);
    expect(s[999]).toBeGreaterThan(9_980);
    expect(strideSample([1, 2, 3], 10).length).toBe(3);
  });
});

describe('selfCheck', () => {
  it('passes sends that follow a Poisson schedule within microseconds', () => {
    const intended = poissonTimes(20_000, 7);
    const sends = intended.map((t, i) => t + 0.001 + (i % 10) * 0.0005);
    const r = selfCheck(sends, intended, RATE);
    expect(r.reasons).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.sendLag.p50Ms).toBeCloseTo(0.003, 6); // 5th of 10 equally frequent lags
    expect(r.sendLag.maxMs).toBeCloseTo(0.0055, 6);
    expect(Math.abs(r.rate.errorVsSchedule)).toBeLessThan(0.001);
    expect(r.arrivals.passed).toBe(true);
    expect(r.arrivals.sampleSize).toBe(1000);
  });

  it('fails evenly spaced sends at the right rate (a constant-rate tool) on the arrival test only', () => {
    const n = 20_000;
    const intended = Float64Array.from({ length: n }, (_, i) => i / RATE);
    const r = selfCheck(intended, intended, RATE);
    expect(r.valid).toBe(false);
    expect(r.arrivals.passed).toBe(false);
    expect(r.reasons.join('\n')).toMatch(/not exponential/);
    expect(r.reasons.join('\n')).not.toMatch(/send-lag/);
  });

  it('fails a point whose send-lag p99 exceeds the threshold', () => {
    const intended = poissonTimes(10_000, 9);
    const sends = intended.map((t, i) => t + (i % 50 === 0 ? 3 : 0.01));
    const r = selfCheck(sends, intended, RATE, { sendLagThresholdMs: 1 });
    expect(r.sendLag.p99Ms).toBe(3);
    expect(r.valid).toBe(false);
    expect(r.reasons.join('\n')).toMatch(/send-lag p99 3 ms exceeds the threshold 1 ms/);
  });

  it('fails a generator that fell behind: the achieved rate is off the schedule', () => {
    const intended = poissonTimes(10_000, 11);
    // Sends drift later and later: 10 % slower than the schedule.
    const sends = intended.map((t) => t * 1.1);
    const r = selfCheck(sends, intended, RATE, { sendLagThresholdMs: Number.POSITIVE_INFINITY });
    expect(r.rate.errorVsSchedule).toBeCloseTo(1 / 1.1 - 1, 3);
    expect(r.reasons.join('\n')).toMatch(/off the schedule/);
    expect(r.valid).toBe(false);
  });
});
