// The service-time fit on samples drawn from the model itself (it must find the parameters again), on
// samples that are not shaped like the model (it must say poor), and Erlang C against known values.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, type ModelParams, serviceTimeMs } from '../../model/index.ts';
import { erlangC, fitService, meanWaitMs } from '../../probe/index.ts';

function draw(model: ModelParams, n: number, seed: number): number[] {
  return Array.from({ length: n }, (_, i) => serviceTimeMs(model, seed, i, 1));
}

describe('fitService', () => {
  it('finds the reference model again from 5 000 draws, and calls the fit good', () => {
    const f = fitService(draw(DEFAULT_MODEL, 5000, 7));
    expect(Math.abs(f.medianMs / 10 - 1)).toBeLessThan(0.02);
    expect(Math.abs(f.sigma - 0.25)).toBeLessThan(0.02);
    expect(Math.abs(f.stragglerProb - 0.02)).toBeLessThan(0.006);
    expect(f.stragglerMinMs).toBeGreaterThan(80);
    expect(f.stragglerMaxMs).toBeLessThan(330);
    expect(f.poor).toBe(false);
    expect(f.ks).toBeLessThan(0.03);
  });

  it('finds no stragglers where there are none', () => {
    const f = fitService(draw({ ...DEFAULT_MODEL, stragglerProb: 0, medianMs: 4, sigma: 0.5 }, 3000, 3));
    expect(f.stragglerProb).toBeLessThan(0.002);
    expect(Math.abs(f.medianMs / 4 - 1)).toBeLessThan(0.04);
    expect(f.poor).toBe(false);
  });

  it('calls a uniform service time a poor fit, with the KS distance and a quantile table', () => {
    const xs = Array.from({ length: 3000 }, (_, i) => 5 + (10 * ((i * 7919) % 3000)) / 3000);
    const f = fitService(xs);
    expect(f.poor).toBe(true);
    expect(f.ks).toBeGreaterThan(f.ksLimit);
    expect(f.quantiles.map((q) => q.q)).toContain(0.5);
  });

  it('calls a two-mode service (half at 5 ms, half at 20 ms) a poor fit', () => {
    const xs = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? 5 : 20) + (i % 10) * 0.01);
    expect(fitService(xs).poor).toBe(true);
  });
});

describe('queueing formulas', () => {
  it('Erlang C matches textbook values', () => {
    // M/M/1: P(wait) = ρ; M/M/2 at ρ = 0.5: 1/3.
    expect(erlangC(1, 0.7)).toBeCloseTo(0.7, 10);
    expect(erlangC(2, 0.5)).toBeCloseTo(1 / 3, 10);
    expect(erlangC(4, 0)).toBe(0);
  });

  it('Allen–Cunneen is exact for M/M/1 and M/D/1 (Pollaczek–Khinchine)', () => {
    // M/M/1, E[S] = 10, ρ = 0.5: Wq = ρ/(1−ρ)·E[S] = 10; M/D/1: half of that.
    expect(meanWaitMs(1, 0.05, 10, 1)).toBeCloseTo(10, 10);
    expect(meanWaitMs(1, 0.05, 10, 0)).toBeCloseTo(5, 10);
    expect(meanWaitMs(2, 0.2, 10, 1)).toBe(Number.POSITIVE_INFINITY);
  });
});
