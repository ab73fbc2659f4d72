// Verdicts on hand-made cases: agrees, diverges, both-collapsed, collapse-mismatch, invalid, missing; the
// allowance widens the interval on the side the overhead explains; comparison.csv lines are exact.

import { describe, expect, it } from 'vitest';
import { calibrationFromRows, formatCalibrationLine } from '../../analysis/judge/calibration.ts';
import { calibrationRows, comparePoint, formatSummaryLine, summarize } from '../../analysis/judge/compare.ts';
import { percentileInterval } from '../../analysis/judge/percentile-ci.ts';
import { latencyVerdict, pointVerdict, rateVerdict } from '../../analysis/judge/verdict.ts';
import { COMPARISON_HEADER, formatComparisonCsv, parseComparisonCsv } from '../../contract/index.ts';
import { pointRow as row } from './fixture.ts';

const id = { config: 'hedge, default budget', load: 0.5, cancellation: 'ignore' as const, seed: 1 };
const cal = calibrationFromRows(
  { config: 'no hedge', load: 0.1, cancellation: 'ignore', seed: 1 },
  row('sim', { p50_ms: 10, p99_ms: 30 }),
  row('real', { p50_ms: 10.6, p99_ms: 32.5 }),
);

/** An interval around the given value: a sample of 1000 values 0.9x … 1.1x of it. */
function intervalsAround(p50: number, p99: number, p999: number) {
  const sample = (v: number) => Float64Array.from({ length: 1000 }, (_, i) => v * (0.9 + (0.2 * i) / 999));
  return {
    p50: percentileInterval(sample(p50), 50),
    p99: percentileInterval(sample(p99), 50),
    'p99.9': percentileInterval(sample(p999), 50),
  };
}

const verdicts = (rows: { metric: string; verdict: string }[]) =>
  Object.fromEntries(rows.map((r) => [r.metric, r.verdict]));

describe('point-level verdicts', () => {
  it('agrees on every metric when sim matches real', () => {
    const rows = comparePoint(
      { id, sim: row('sim'), real: row('real'), intervals: intervalsAround(10, 40, 120) },
      cal,
    );
    expect(rows.map((r) => r.verdict)).toEqual(Array(7).fill('agrees'));
  });

  it('diverges on exactly the metrics that are off', () => {
    const sim = row('sim', { p99_ms: 80, requests_per_call: 1.2, rejected_rate: 0.01 });
    const rows = comparePoint({ id, sim, real: row('real'), intervals: intervalsAround(10, 40, 120) }, cal);
    expect(verdicts(rows)).toEqual({
      p50: 'agrees',
      p99: 'diverges',
      'p99.9': 'agrees',
      requests_per_call: 'diverges',
      utilization: 'agrees',
      rejected_rate: 'agrees',
      collapse: 'agrees',
    });
  });

  it('both-collapsed, collapse-mismatch, invalid and missing apply to every metric', () => {
    const both = comparePoint(
      {
        id,
        sim: row('sim', { collapsed: true }),
        real: row('real', { collapsed: true, valid: false }),
        intervals: null,
      },
      cal,
    );
    expect(new Set(both.map((r) => r.verdict))).toEqual(new Set(['both-collapsed']));
    const mismatch = comparePoint(
      { id, sim: row('sim', { collapsed: true }), real: row('real'), intervals: null },
      cal,
    );
    expect(new Set(mismatch.map((r) => r.verdict))).toEqual(new Set(['collapse-mismatch']));
    const invalid = comparePoint(
      { id, sim: row('sim', { collapsed: true }), real: row('real', { valid: false }), intervals: null },
      cal,
    );
    expect(new Set(invalid.map((r) => r.verdict))).toEqual(new Set(['invalid']));
    const missing = comparePoint({ id, sim: row('sim'), real: undefined, intervals: null }, cal);
    expect(new Set(missing.map((r) => r.verdict))).toEqual(new Set(['missing']));
    expect(missing[0].sim).toBe(10);
    expect(missing[0].real).toBeNull();
  });

  it('pointVerdict precedence: missing > both-collapsed > invalid > collapse-mismatch', () => {
    expect(pointVerdict(undefined, row('real'))).toBe('missing');
    expect(
      pointVerdict(row('sim', { collapsed: true }), row('real', { collapsed: true, valid: false })),
    ).toBe('both-collapsed');
    expect(pointVerdict(row('sim'), row('real', { collapsed: true, valid: false }))).toBe('invalid');
    expect(pointVerdict(row('sim'), row('real', { collapsed: true }))).toBe('collapse-mismatch');
    expect(pointVerdict(row('sim'), row('real'))).toBeNull();
  });
});

describe('metric rules', () => {
  it('a positive allowance lets sim sit below the real interval by that much, not above it', () => {
    expect(latencyVerdict(37.5, 40, 44, 2.5)).toBe('agrees');
    expect(latencyVerdict(37.4, 40, 44, 2.5)).toBe('diverges');
    expect(latencyVerdict(44, 40, 44, 2.5)).toBe('agrees');
    expect(latencyVerdict(44.1, 40, 44, 2.5)).toBe('diverges');
  });

  it('a negative allowance (real faster than sim) widens the top instead', () => {
    expect(latencyVerdict(45, 40, 44, -1)).toBe('agrees');
    expect(latencyVerdict(39.9, 40, 44, -1)).toBe('diverges');
  });

  it('an interval open above accepts any sim value over its low end', () => {
    expect(latencyVerdict(1e6, 40, null, 0)).toBe('agrees');
    expect(latencyVerdict(39, 40, null, 0)).toBe('diverges');
  });

  it('rate tolerances are absolute and inclusive', () => {
    expect(rateVerdict('requests_per_call', 1.1, 1.05)).toBe('agrees');
    expect(rateVerdict('requests_per_call', 1.1001, 1.05)).toBe('diverges');
    expect(rateVerdict('utilization', 0.45, 0.5)).toBe('agrees');
    expect(rateVerdict('rejected_rate', 0.03, 0.0)).toBe('diverges');
  });

  it('latency allowance comes from the calibration: p50 figure for p50, p99 figure for p99 and p99.9', () => {
    const rows = comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null }, cal);
    expect(rows.slice(0, 3).map((r) => r.allowance)).toEqual([0.6, 2.5, 2.5]);
    // Without raw samples the interval is the real value itself: sim 2.5 ms under real still agrees at p99.
    const under = comparePoint(
      { id, sim: row('sim', { p99_ms: 37.5 }), real: row('real'), intervals: null },
      cal,
    );
    expect(under[1].verdict).toBe('agrees');
    const noCal = comparePoint(
      { id, sim: row('sim', { p99_ms: 37.5 }), real: row('real'), intervals: null },
      null,
    );
    expect(noCal[1].verdict).toBe('diverges');
  });

  it('an unusable calibration gives no allowance and says so', () => {
    const bad = calibrationFromRows(
      { config: 'no hedge', load: 0.1, cancellation: 'ignore', seed: 1 },
      row('sim'),
      row('real', { valid: false, p50_ms: 12 }),
    );
    expect(bad.usable).toBe(false);
    expect(formatCalibrationLine(bad)).toMatch(/NOT USED .*self-check.*0 ms/);
    expect(formatCalibrationLine(cal)).toBe(
      "calibration: no hedge at load 0.10 (ignore, seed 1): real − sim = +0.600 ms at p50, +2.500 ms at p99 — the harness's own overhead; latency verdicts allow for it (p50 uses the p50 figure, p99 and p99.9 the p99 figure)",
    );
  });
});

describe('comparison.csv', () => {
  it('has the exact header, fixed decimals, quoted config names, and parses back', () => {
    const sim = row('sim', { p99_ms: 80 });
    const rows = [
      ...calibrationRows({
        id: { ...id, config: 'no hedge', load: 0.1 },
        sim: row('sim'),
        real: row('real', { p50_ms: 10.25 }),
        intervals: null,
      }),
      ...comparePoint({ id, sim, real: row('real'), intervals: intervalsAround(10, 40, 120) }, cal),
    ];
    const text = formatComparisonCsv(rows);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'config,load,cancellation,seed,metric,sim,real,real_ci_low,real_ci_high,allowance,diff,verdict',
    );
    expect(lines[0]).toBe(COMPARISON_HEADER);
    expect(lines[1]).toBe('no hedge,0.10,ignore,1,p50,10.000,10.250,10.250,10.250,0.250,-0.250,calibration');
    expect(lines[4]).toMatch(
      /^"hedge, default budget",0\.50,ignore,1,p99,80\.000,40\.000,\d+\.\d{3},\d+\.\d{3},2\.500,40\.000,diverges$/,
    );
    expect(lines[8]).toBe(
      '"hedge, default budget",0.50,ignore,1,rejected_rate,0.00000,0.00000,,,0.02000,0.00000,agrees',
    );
    expect(lines[9]).toBe('"hedge, default budget",0.50,ignore,1,collapse,false,false,,,,,agrees');
    expect(text.endsWith('\n')).toBe(true);
    expect(formatComparisonCsv(parseComparisonCsv(text))).toBe(text);
  });

  it('the summary line counts points and agreeing metrics', () => {
    const rows = [
      ...comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null }, cal),
      ...comparePoint(
        {
          id: { ...id, load: 0.95 },
          sim: row('sim', { collapsed: true }),
          real: row('real'),
          intervals: null,
        },
        cal,
      ),
    ];
    expect(formatSummaryLine(summarize(rows, 3, 2))).toBe(
      'comparison: 3 points (2 with sim and real); 7 of 14 metrics agree; diverges 0, both-collapsed 0, collapse-mismatch 7, invalid 0, missing 0',
    );
  });
});
