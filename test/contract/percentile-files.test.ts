// The one percentile rule across a run's files: for the same calls, read back from raw/, points.csv (a
// histogram), attribution.csv (the sorted sample) and comparison.csv (the real row, and the allowance taken
// from the sorted samples with and without the harness) all hold the value of rank percentileRank(n, q).
// On the analysis fixture (test/analysis/fixture.ts), recomputed by `compare` as the golden test does.

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRunFolder } from '../../analysis/index.ts';
import {
  ATTRIBUTION_COLUMNS,
  CALL_FIELDS,
  csvBody,
  formatLoad,
  LATENCY_METRICS,
  LatencyHistogram,
  parseComparisonCsv,
  parsePointsCsv,
  percentileRank,
  RUN_FILES,
} from '../../contract/index.ts';
import { type FixturePoint, slugOf, VERDICT_POINTS, writeFixtureRun } from '../analysis/fixture.ts';

// Every point whose raw files attribution can split: not the failed one, not the one in the old format.
const POINTS = VERDICT_POINTS.filter((p) => !p.noRaw && !p.legacy);

let dir: string;

beforeAll(() => {
  dir = writeFixtureRun(VERDICT_POINTS);
  compareRunFolder(dir, { rewritePoints: true });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => readFileSync(join(dir, name), 'utf8');

/** The point's successful measured latencies as raw/ holds them, ascending. */
function rawOkLatencies(p: FixturePoint): Float64Array {
  const rows = csvBody(read(join('raw', `${slugOf(p)}.calls.csv`)), CALL_FIELDS.join(','))!;
  const ok = rows.filter((r) => r[CALL_FIELDS.indexOf('outcome')] === 'ok');
  return Float64Array.from(ok, (r) => Number(r[CALL_FIELDS.indexOf('latency_ms')])).sort();
}

/** What points.csv's histogram reports for a value: the top of its bucket. */
function bucketTop(ms: number): number {
  const h = new LatencyHistogram();
  h.record(ms);
  return h.percentile(100);
}

/** attribution.csv's row of a point and part, as cells by column. */
function attributionRow(p: FixturePoint, part: string): Record<string, string> {
  const rows = csvBody(read(RUN_FILES.attribution), ATTRIBUTION_COLUMNS.join(','))!;
  const cells = rows.find((r) => r[0] === p.config && r[1] === formatLoad(p.load) && r[4] === part);
  expect(cells, `${p.config} ${p.load} ${part} in attribution.csv`).toBeDefined();
  return Object.fromEntries(ATTRIBUTION_COLUMNS.map((c, i) => [c, cells![i]]));
}

describe('one rank for the same calls in points.csv, attribution.csv and comparison.csv', () => {
  it.each(POINTS.map((p): [string, FixturePoint] => [`${p.config} ${p.load}`, p]))('%s', (_, p) => {
    const xs = rawOkLatencies(p);
    const n = xs.length;
    expect(n).toBeGreaterThan(0);
    const real = parsePointsCsv(read(RUN_FILES.points)).find(
      (r) => r.source === 'real' && r.config === p.config && formatLoad(r.load) === formatLoad(p.load),
    );
    expect(real, 'the real row recomputed from raw/').toBeDefined();
    const latency = attributionRow(p, 'latency');
    const free = attributionRow(p, 'latency_without_harness');
    expect(latency.n).toBe(String(n));
    const comparison = parseComparisonCsv(read(RUN_FILES.comparison)).filter(
      (r) => r.config === p.config && formatLoad(r.load) === formatLoad(p.load),
    );
    for (const m of LATENCY_METRICS) {
      const v = xs[percentileRank(n, m.percentile) - 1];
      const at = `${m.name} of ${n} calls`;
      expect(latency[m.column], `attribution.csv ${at}`).toBe(v.toFixed(3));
      expect(real![m.column]?.toFixed(3), `points.csv ${at}`).toBe(bucketTop(v).toFixed(3));
      const line = comparison.find((r) => r.metric === m.name);
      expect(line?.real?.toFixed(3), `comparison.csv real ${at}`).toBe(bucketTop(v).toFixed(3));
      if (p.growthMs === undefined) {
        // real − real′ at the same rank of both sorted samples (each file rounds to 3 decimals on its own).
        const split = Number(latency[m.column]) - Number(free[m.column]);
        expect(line?.allowance, `comparison.csv allowance ${at}`).not.toBeNull();
        const gap = Math.abs(line!.allowance! - split);
        expect(gap, `comparison.csv allowance ${at}`).toBeLessThanOrEqual(0.0011);
      }
    }
  });
});
