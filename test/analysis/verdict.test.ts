// Verdicts on hand-made cases: the equivalence rule (inside, outside, straddling, open), the margins, the
// verdicts a whole point shares, what a line says of its own power, and comparison.csv's lines exactly.

import { describe, expect, it } from 'vitest';
import { agreementLine, detectable } from '../../analysis/judge/agreement.ts';
import { calibrationFromRows, formatCalibrationLine } from '../../analysis/judge/calibration.ts';
import { comparePoint, formatSummaryLine, summarize } from '../../analysis/judge/compare.ts';
import {
  callsToDecide,
  detectableDifference,
  equivalence,
  marginOf,
} from '../../analysis/judge/equivalence.ts';
import type { MetricDiff, PointDiffs } from '../../analysis/judge/paired-comparison.ts';
import { pointVerdict } from '../../analysis/judge/verdict.ts';
import { COMPARISON_HEADER, formatComparisonCsv, parseComparisonCsv } from '../../contract/index.ts';
import { MARGIN_CAPS, resolveMargins } from '../../model/index.ts';
import { pointRow as row } from './fixture.ts';

const id = { config: 'hedge, default budget', load: 0.5, cancellation: 'ignore' as const, seed: 1 };
const margins = resolveMargins(undefined);

/** A difference real − sim of `d` with an interval ± `half` about it, over `n` calls. */
const diff = (d: number, half: number, n = 3000): MetricDiff => ({
  estimate: d,
  low: d - half,
  high: d + half,
  n,
});

/** Every metric the same small difference: what a harness-free measurement of the model gives. */
const close: PointDiffs = {
  p50: diff(0, 0.01),
  p99: diff(0.05, 0.1),
  'p99.9': diff(0, 0.5),
  requests_per_call: diff(0, 0.001),
  utilization: diff(0.001, 0.002),
  rejected_rate: diff(0, 0),
};

const verdicts = (rows: { metric: string; verdict: string }[]) =>
  Object.fromEntries(rows.map((r) => [r.metric, r.verdict]));

describe('the equivalence rule', () => {
  it('agrees inside ± margin, diverges wholly outside, is undecided across; the bounds count as inside', () => {
    expect(equivalence(-0.1, 0.1, 0.2)).toBe('agrees');
    expect(equivalence(-0.2, 0.2, 0.2)).toBe('agrees');
    expect(equivalence(0.21, 0.5, 0.2)).toBe('diverges');
    expect(equivalence(-0.9, -0.3, 0.2)).toBe('diverges');
    expect(equivalence(0.1, 0.3, 0.2)).toBe('undecided');
    expect(equivalence(-0.3, 0.3, 0.2)).toBe('undecided');
  });

  it('an interval open above can never agree, and diverges only when its low end is past the margin', () => {
    expect(equivalence(-0.1, Number.POSITIVE_INFINITY, 0.2)).toBe('undecided');
    expect(equivalence(0.3, Number.POSITIVE_INFINITY, 0.2)).toBe('diverges');
    expect(equivalence(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 0.2)).toBe('undecided');
  });

  it('a wider interval decides less, never agrees more', () => {
    for (const half of [0.05, 0.1, 0.15, 0.3, 1]) {
      const narrow = equivalence(0.1 - half / 2, 0.1 + half / 2, 0.2);
      const wide = equivalence(0.1 - half, 0.1 + half, 0.2);
      if (narrow !== 'agrees') expect(wide).not.toBe('agrees');
    }
  });

  it('latency margins are a fraction of the simulated value with a 0.1 ms floor; rates are absolute', () => {
    expect(marginOf('p50', 10, margins)).toBeCloseTo(0.2, 12);
    expect(marginOf('p99', 200, margins)).toBeCloseTo(6, 12);
    expect(marginOf('p99.9', 300, margins)).toBeCloseTo(15, 12);
    expect(marginOf('p50', 1, margins)).toBe(0.1);
    expect(marginOf('requests_per_call', 1.05, margins)).toBe(0.01);
    expect(marginOf('rejected_rate', 0.2, margins)).toBe(0.005);
    expect(marginOf('p50', 10, resolveMargins({ p50: 0.01 }))).toBeCloseTo(0.1, 12);
  });

  it('says about how many calls would decide an undecided difference, from the 1/√n width', () => {
    // Half-width 0.2 at 1000 calls, estimate 0.1 against a margin of 0.2: it needs a half-width of 0.1,
    // (0.2 / 0.1)² = 4 times the calls.
    expect(callsToDecide({ estimate: 0.1, low: -0.1, high: 0.3, n: 1000 }, 0.2)).toBe(4000);
    // Outside the margin: a half-width below the gap of 0.1 decides a divergence the same way.
    expect(callsToDecide({ estimate: 0.3, low: 0.1, high: 0.5, n: 1000 }, 0.2)).toBe(4000);
    expect(callsToDecide({ estimate: 0.2, low: 0, high: 0.4, n: 1000 }, 0.2)).toBeNull();
    expect(
      callsToDecide({ estimate: 0, low: -0.1, high: Number.POSITIVE_INFINITY, n: 1000 }, 0.2),
    ).toBeNull();
  });

  it('the smallest divergence a line could have caught is its margin plus its half-width', () => {
    expect(detectableDifference(-0.05, 0.05, 0.2)).toBeCloseTo(0.25, 12);
    expect(detectableDifference(0, Number.POSITIVE_INFINITY, 0.2)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('point-level verdicts', () => {
  it('agrees on every metric when every difference sits inside its margin', () => {
    const rows = comparePoint(
      { id, sim: row('sim'), real: row('real'), intervals: null, diffs: close },
      margins,
    );
    expect(rows.map((r) => r.verdict)).toEqual(Array(7).fill('agrees'));
  });

  it('diverges and stays undecided on exactly the metrics whose intervals say so', () => {
    const diffs: PointDiffs = {
      ...close,
      p99: diff(4, 0.5), // 4 ± 0.5 ms against a margin of 3 % of 40 = 1.2 ms
      'p99.9': diff(5, 2), // 5 ± 2 against 6 ms: straddles
      requests_per_call: diff(-0.03, 0.005),
    };
    const rows = comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null, diffs }, margins);
    expect(verdicts(rows)).toEqual({
      p50: 'agrees',
      p99: 'diverges',
      'p99.9': 'undecided',
      requests_per_call: 'diverges',
      utilization: 'agrees',
      rejected_rate: 'agrees',
      collapse: 'agrees',
    });
  });

  it('without an interval of the difference nothing agrees: undecided, never agreement by default', () => {
    const rows = comparePoint(
      { id, sim: row('sim'), real: row('real'), intervals: null, diffs: null },
      margins,
    );
    expect(new Set(rows.filter((r) => r.metric !== 'collapse').map((r) => r.verdict))).toEqual(
      new Set(['undecided']),
    );
  });

  it('the values sim and real are far apart still agree when the harness explains the gap call by call', () => {
    // Real p50 0.3 ms above sim, every call: harness. real′ − sim = 0 ± 0.01.
    const rows = comparePoint(
      {
        id,
        sim: row('sim'),
        real: row('real', { p50_ms: 10.3 }),
        intervals: null,
        diffs: close,
        harness: { p50: 0.3 },
      },
      margins,
    );
    expect(rows[0]).toMatchObject({ metric: 'p50', diff: -0.3, allowance: 0.3, verdict: 'agrees' });
  });

  it('both-collapsed, collapse-mismatch, invalid and missing apply to every metric', () => {
    const base = { id, intervals: null, diffs: close };
    const both = comparePoint(
      { ...base, sim: row('sim', { collapsed: true }), real: row('real', { collapsed: true, valid: false }) },
      margins,
    );
    expect(new Set(both.map((r) => r.verdict))).toEqual(new Set(['both-collapsed']));
    const mismatch = comparePoint(
      { ...base, sim: row('sim', { collapsed: true }), real: row('real') },
      margins,
    );
    expect(new Set(mismatch.map((r) => r.verdict))).toEqual(new Set(['collapse-mismatch']));
    const invalid = comparePoint(
      { ...base, sim: row('sim', { collapsed: true }), real: row('real', { valid: false }) },
      margins,
    );
    expect(new Set(invalid.map((r) => r.verdict))).toEqual(new Set(['invalid']));
    const missing = comparePoint({ ...base, sim: row('sim'), real: undefined }, margins);
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

describe('what a line says of its own power', () => {
  it('the agreement headline takes the farthest reach of each metric over the agreeing lines', () => {
    const rows = [
      ...comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null, diffs: close }, margins),
      ...comparePoint(
        {
          id: { ...id, load: 0.95 },
          sim: row('sim', { p99_ms: 100 }),
          real: row('real'),
          intervals: null,
          diffs: { ...close, p99: diff(0.5, 0.2) },
        },
        margins,
      ),
    ];
    // p99: 0.15 ms of 40 at load 0.5, 0.7 ms of 100 at load 0.95 — the larger share, 0.7 %.
    expect(agreementLine(rows, margins)).toBe(
      'agreement: where they agree, sim and real are within 0.1 % at p50 (margin 2 %), 0.7 % at p99 (margin 3 %), 0.42 % at p99.9 (margin 5 %), ±0.0010 in requests per call (margin 0.0100), ±0.0030 in utilisation (margin 0.0100), ±0.00000 in rejected rate (margin 0.00500)',
    );
    const p99 = rows.find((r) => r.metric === 'p99' && r.load === 0.95)!;
    // margin 3 ms + half-width 0.2 ms, of 100 ms.
    expect(detectable(p99)).toBeCloseTo(0.032, 12);
  });
});

describe('the calibration line', () => {
  const cal = calibrationFromRows(
    { config: 'no hedge', load: 0.1, cancellation: 'ignore', seed: 1 },
    row('sim', { p50_ms: 10, p99_ms: 30 }),
    row('real', { p50_ms: 10.6, p99_ms: 32.5 }),
  );

  it('gives what the harness adds and the calibration point’s own verdicts, and lends no allowance', () => {
    const rows = comparePoint(
      {
        id: { ...id, config: 'no hedge', load: 0.1 },
        sim: row('sim'),
        real: row('real'),
        intervals: null,
        diffs: close,
      },
      margins,
    );
    expect(formatCalibrationLine(cal, rows)).toBe(
      "calibration: no hedge at load 0.10 (ignore, seed 1): real − sim = +0.600 ms at p50, +2.500 ms at p99 — what this setup's clock, network and HTTP add; judged like any point, with each call's harness parts taken out: 7 of 7 metrics agree",
    );
  });

  it('says when the calibration point cannot stand for the harness, and why', () => {
    const bad = calibrationFromRows(
      { config: 'no hedge', load: 0.1, cancellation: 'ignore', seed: 1 },
      row('sim'),
      row('real', { valid: false, p50_ms: 12 }),
    );
    expect(bad.usable).toBe(false);
    expect(formatCalibrationLine(bad)).toMatch(/not the harness's overhead \(.*self-check/);
    expect(formatCalibrationLine(null)).toBe('calibration: none (the matrix has no calibration point)');
  });
});

describe('comparison.csv', () => {
  it('has the exact header, fixed decimals, quoted config names, and parses back', () => {
    const diffs: PointDiffs = { ...close, p99: diff(-40, 0.5) };
    const rows = comparePoint(
      {
        id,
        sim: row('sim', { p99_ms: 80 }),
        real: row('real'),
        intervals: null,
        diffs,
        harness: { p99: 0.25 },
      },
      margins,
    );
    const text = formatComparisonCsv(rows);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'config,load,cancellation,seed,metric,sim,real,real_ci_low,real_ci_high,allowance,diff,diff_ci_low,diff_ci_high,margin,verdict',
    );
    expect(lines[0]).toBe(COMPARISON_HEADER);
    // sim − real′ is written: 40 ± 0.5 for a D of −40 ± 0.5; margin 3 % of 80.
    expect(lines[2]).toBe(
      '"hedge, default budget",0.50,ignore,1,p99,80.000,40.000,40.000,40.000,0.250,40.000,39.500,40.500,2.400,diverges',
    );
    expect(lines[6]).toBe(
      '"hedge, default budget",0.50,ignore,1,rejected_rate,0.00000,0.00000,,,,0.00000,0.00000,0.00000,0.00500,agrees',
    );
    expect(lines[7]).toBe('"hedge, default budget",0.50,ignore,1,collapse,false,false,,,,,,,,agrees');
    expect(text.endsWith('\n')).toBe(true);
    expect(formatComparisonCsv(parseComparisonCsv(text))).toBe(text);
  });

  it('reads a file written before the paired verdict, its calibration lines and all', () => {
    const old = [
      'config,load,cancellation,seed,metric,sim,real,real_ci_low,real_ci_high,allowance,diff,verdict',
      'no hedge,0.10,ignore,1,p50,10.000,10.250,10.250,10.250,0.250,-0.250,calibration',
      '"hedge, default budget",0.50,ignore,1,p99,80.000,40.000,38.000,44.000,2.500,40.000,diverges',
      '',
    ].join('\n');
    const rows = parseComparisonCsv(old);
    expect(rows.map((r) => r.verdict)).toEqual(['calibration', 'diverges']);
    expect(rows[1]).toMatchObject({
      allowance: 2.5,
      diff: 40,
      diffCiLow: null,
      diffCiHigh: null,
      margin: null,
    });
  });

  it('the summary line counts points, agreeing and undecided metrics', () => {
    const rows = [
      ...comparePoint({ id, sim: row('sim'), real: row('real'), intervals: null, diffs: close }, margins),
      ...comparePoint(
        { id: { ...id, load: 0.7 }, sim: row('sim'), real: row('real'), intervals: null, diffs: null },
        margins,
      ),
      ...comparePoint(
        {
          id: { ...id, load: 0.95 },
          sim: row('sim', { collapsed: true }),
          real: row('real'),
          intervals: null,
          diffs: null,
        },
        margins,
      ),
    ];
    expect(formatSummaryLine(summarize(rows, 4, 3))).toBe(
      'comparison: 4 points (3 with sim and real); 8 of 21 metrics agree; undecided 6, diverges 0, both-collapsed 0, collapse-mismatch 7, invalid 0, missing 0',
    );
  });

  it('the margins caps are the documented ones', () => {
    expect(MARGIN_CAPS).toEqual({
      p50: 0.02,
      p99: 0.03,
      'p99.9': 0.05,
      requests_per_call: 0.01,
      hedge_rate: 0.01,
      utilization: 0.01,
      rejected_rate: 0.005,
    });
  });
});
