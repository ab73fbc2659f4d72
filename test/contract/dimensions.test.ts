// Extra point dimensions (model/dimensions.ts), shown with the first one, the hedge delay: a matrix that
// sweeps it gets one point per delay with its own key, slug, rows and column; a matrix that does not
// writes exactly what it wrote before the dimension existed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  entryKey,
  POINTS_HEADER,
  type PointRow,
  parseComparisonCsv,
  parseManifest,
  parsePointsCsv,
  rowKey,
} from '../../contract/index.ts';
import { expandMatrix, MatrixInvalidError, parseMatrix, pointKey, pointSlug } from '../../model/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';

const base = {
  name: 'delay sweep',
  configs: ['no hedge', 'hedge, no budget'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 3000,
  calibration: false,
};

const tmp = mkdtempSync(join(tmpdir(), 'hb-dims-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a delay sweep', () => {
  const m = parseMatrix({ ...base, delaysMs: [40, 20, 10.5] });
  const points = expandMatrix(m);

  it('runs each hedged configuration once per delay and an unhedged one once', () => {
    expect(points.map((p) => [p.config.name, p.config.hedge?.delayMs ?? null, p.dims ?? null])).toEqual([
      ['no hedge', null, null],
      ['hedge, no budget', 40, { delayMs: 40 }],
      ['hedge, no budget', 20, { delayMs: 20 }],
      ['hedge, no budget', 10.5, { delayMs: 10.5 }],
    ]);
    expect(points.map(pointKey)).toEqual([
      'no hedge|0.50|ignore|1',
      'hedge, no budget|0.50|ignore|1|d=40',
      'hedge, no budget|0.50|ignore|1|d=20',
      'hedge, no budget|0.50|ignore|1|d=10.5',
    ]);
    expect(points.map(pointSlug)).toEqual([
      'no-hedge_0.50_ignore_s1',
      'hedge-no-budget_0.50_ignore_s1_d40',
      'hedge-no-budget_0.50_ignore_s1_d20',
      'hedge-no-budget_0.50_ignore_s1_d10p5',
    ]);
  });

  it('writes a delay_ms column, reads it back, and changes only what the delay changes', async () => {
    const swept = await simulateMatrix(m, join(tmp, 'swept'), { threads: 0 });
    const plain = await simulateMatrix(parseMatrix(base), join(tmp, 'plain'), { threads: 0 });
    const text = readFileSync(swept.pointsCsvPath, 'utf8');
    expect(text.split('\n')[0]).toBe(`${POINTS_HEADER},delay_ms`);
    expect(readFileSync(plain.pointsCsvPath, 'utf8').split('\n')[0]).toBe(POINTS_HEADER);

    const rows = parsePointsCsv(text);
    expect(rows.map((r) => r.delay_ms ?? null)).toEqual([null, 40, 20, 10.5]);
    expect(rows.map(rowKey)).toEqual(points.map(pointKey));
    const [noHedge, d40, d20, d10] = rows;
    // The configuration's own delay is 20 ms: that point is the plain matrix's row plus the column.
    const plainRows = parsePointsCsv(readFileSync(plain.pointsCsvPath, 'utf8'));
    const strip = (r: PointRow) => ({ ...r, delay_ms: undefined });
    expect(strip(d20)).toEqual({ ...plainRows[1], delay_ms: undefined });
    expect(strip(noHedge)).toEqual({ ...plainRows[0], delay_ms: undefined });
    // A shorter delay fires more hedges (same arrivals and service draws: common random numbers).
    expect(d10.hedge_rate!).toBeGreaterThan(d20.hedge_rate!);
    expect(d20.hedge_rate!).toBeGreaterThan(d40.hedge_rate!);
    // The printed tables give each delay its own line.
    expect(swept.tables).toContain('hedge, no budget · delay 10.5 ms');
    expect(swept.tables).toContain('hedge, no budget · delay 40 ms');
  });
});

describe('dimension columns elsewhere', () => {
  it('comparison.csv carries the delay column and reads it back', () => {
    const head =
      'config,load,cancellation,seed,metric,sim,real,real_ci_low,real_ci_high,allowance,diff,verdict,delay_ms';
    const rows = parseComparisonCsv(
      `${head}\nno hedge,0.50,ignore,1,p50,10.000,10.000,9.000,11.000,1.000,0.000,agrees,\n` +
        `"hedge, no budget",0.50,ignore,1,p50,10.000,10.000,9.000,11.000,1.000,0.000,agrees,5\n`,
    );
    expect(rows.map((r) => r.delay_ms ?? null)).toEqual([null, 5]);
    expect(() => parseComparisonCsv(`${head.replace('delay_ms', 'bogus')}\n`)).toThrow(/header/);
  });

  it('a manifest entry keeps its dimensions and keys by them', () => {
    const entry = {
      key: 'x',
      slug: 'hedge-no-budget_0.50_ignore_s1_d5',
      config: 'hedge, no budget',
      load: 0.5,
      cancellation: 'ignore',
      seed: 1,
      dims: { delayMs: 5 },
      calls: 10,
      state: 'pending',
    };
    const r = parseManifest({ run: 'r', matrix: {}, points: [entry] });
    expect(r.ok).toBe(true);
    if (r.ok) expect(entryKey(r.manifest.points[0])).toBe('hedge, no budget|0.50|ignore|1|d=5');
    const bad = parseManifest({ run: 'r', matrix: {}, points: [{ ...entry, dims: { delay: 5 } }] });
    expect(bad.ok).toBe(false);
  });

  it('a bad delay list is refused with the field named', () => {
    const issues = (json: unknown) => {
      try {
        parseMatrix(json);
      } catch (e) {
        expect(e).toBeInstanceOf(MatrixInvalidError);
        return (e as MatrixInvalidError).issues.join('\n');
      }
      throw new Error('expected a refusal');
    };
    expect(issues({ ...base, delaysMs: [0] })).toMatch(/delaysMs\[0\]: must be > 0/);
    expect(issues({ ...base, delaysMs: [] })).toMatch(/delaysMs: must list at least one delay/);
    expect(issues({ ...base, delaysMs: [10, 10] })).toMatch(/delaysMs: 10 appears twice/);
  });
});
