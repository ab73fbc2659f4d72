// The comparison for a foreign service: the interval for two independent samples (√2 the one-sample
// spread on each side, open ends kept open, never below 0 ms), and the client-side metric list, where the
// hedge rate takes utilisation's place.

import { describe, expect, it } from 'vitest';
import { comparePoint } from '../../analysis/judge/compare.ts';
import { independentSampleInterval, percentileInterval } from '../../analysis/judge/percentile-ci.ts';
import { CLIENT_METRICS, METRICS } from '../../analysis/judge/verdict.ts';
import type { PointRow } from '../../contract/index.ts';
import { pointRow } from './fixture.ts';

/** A row of the study's shape; a foreign service's real row has no utilisation. */
const row = (source: 'sim' | 'real', over: Partial<PointRow> = {}): PointRow =>
  pointRow(source, { ...(source === 'real' ? { utilization: null } : {}), ...over });

const sample = Float64Array.from({ length: 1000 }, (_, i) => 9 + (2 * i) / 999);

describe('independentSampleInterval', () => {
  it('stretches each side by √2 about the estimate', () => {
    const iv = percentileInterval(sample, 50)!;
    const two = independentSampleInterval(iv);
    expect(two.estimate).toBe(iv.estimate);
    expect(two.low).toBeCloseTo(iv.estimate - Math.SQRT2 * (iv.estimate - iv.low), 12);
    expect(two.high).toBeCloseTo(iv.estimate + Math.SQRT2 * (iv.high - iv.estimate), 12);
    expect(two.low).toBeLessThan(iv.low);
    expect(two.high).toBeGreaterThan(iv.high);
  });

  it('keeps an open end open and never goes below 0 ms', () => {
    const small = Float64Array.from({ length: 50 }, (_, i) => i * 0.01);
    const iv = percentileInterval(small, 99.9)!;
    expect(iv.highOpen).toBe(true);
    const two = independentSampleInterval(iv);
    expect(two.highOpen).toBe(true);
    expect(two.high).toBe(iv.high);
    expect(independentSampleInterval(percentileInterval(small, 1)!).low).toBeGreaterThanOrEqual(0);
  });

  it('turns a simulated value just outside the one-sample interval into agreement', () => {
    const iv = percentileInterval(sample, 50)!;
    const outside = iv.high + 0.2 * (iv.high - iv.estimate);
    const one = { p50: iv, p99: null, 'p99.9': null };
    const two = { p50: independentSampleInterval(iv), p99: null, 'p99.9': null };
    const id = { config: 'x', load: 0.5, cancellation: 'ignore' as const, seed: 1 };
    const real = row('real', { p50_ms: Number(iv.estimate.toFixed(3)) });
    const sim = row('sim', { p50_ms: Number(outside.toFixed(3)) });
    const p50 = (rows: { metric: string; verdict: string }[]) =>
      rows.find((r) => r.metric === 'p50')!.verdict;
    expect(p50(comparePoint({ id, sim, real, intervals: one }, null))).toBe('diverges');
    expect(p50(comparePoint({ id, sim, real, intervals: two, clientSide: true }, null))).toBe('agrees');
  });
});

describe('client-side metrics', () => {
  it('compare the hedge rate where utilisation was, and leave METRICS as it was', () => {
    expect(METRICS).toContain('utilization');
    expect(CLIENT_METRICS).not.toContain('utilization');
    const id = { config: 'x', load: 0.5, cancellation: 'ignore' as const, seed: 1 };
    const rows = comparePoint(
      { id, sim: row('sim'), real: row('real', { hedge_rate: 0.2 }), intervals: null, clientSide: true },
      null,
    );
    expect(rows.map((r) => r.metric)).toEqual([...CLIENT_METRICS]);
    const hedge = rows.find((r) => r.metric === 'hedge_rate')!;
    expect(hedge).toMatchObject({ sim: 0.05, real: 0.2, allowance: 0.05, verdict: 'diverges' });
    // Today's points compare as before: utilisation, no hedge rate.
    const own = comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null }, null);
    expect(own.map((r) => r.metric)).toEqual([...METRICS]);
  });
});
