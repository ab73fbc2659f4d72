// The report's "Every point" tables where the model fails attempts (an errorProbs sweep): they gain the failed
// rate and the hedged-on-error rate, and each point's label says its failures (`· errors 5 %`); a run without
// failures keeps its tables as they were (no such columns; the golden files hold the rest).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../analysis/index.ts';
import type { PointAnalysis } from '../../analysis/judge/point-analysis.ts';
import type { RunAnalysis } from '../../analysis/judge/run-analysis.ts';
import { pointsTable } from '../../analysis/report/points-table.ts';
import { parsePointsCsv } from '../../contract/index.ts';
import { parseMatrix } from '../../model/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const spec = {
  name: 'failures',
  configs: [
    'no hedge',
    'hedge, default budget',
    { name: 'hedge, first completion', hedge: { delayMs: 20, winner: 'first-completion' } },
    { name: 'hedge, hedge on failure', hedge: { delayMs: 20, loneFailure: 'hedge-now' } },
  ],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 2000,
};

/** The lines of the table under `## Every point`. */
function everyPointTable(md: string): string[] {
  const lines = md.split('\n');
  const at = lines.indexOf('## Every point');
  const start = lines.findIndex((l, i) => i > at && l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start, end);
}

async function simulated(json: object): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hb-fail-report-'));
  dirs.push(dir);
  await simulateMatrix(parseMatrix(json), dir, { threads: 0 });
  await writeReport(dir);
  return dir;
}

describe('the report of points with failures', () => {
  it('a simulation: failed rate and hedged on error in the every-point table, the failures in each label', async () => {
    const dir = await simulated({ ...spec, errorProbs: [0, 0.05] });
    const table = everyPointTable(readFileSync(join(dir, 'report.md'), 'utf8'));
    expect(table[0]).toContain('| rejected rate | failed rate | hedged on error | utilisation |');
    const row = (label: string) => table.find((l) => l.startsWith(`| ${label} |`));
    // No hedge at 5 %: its calls fail as often as its attempts; it counts no hedges (—).
    expect(row('no hedge · errors 5 %')).toMatch(/\| [45]\.\d\d % \| — \|/);
    expect(row('no hedge')).toMatch(/\| 0\.00 % \| — \|/);
    // Hedging at once on a failure hedges some calls for it; first-completion returns the failures.
    const rows = parsePointsCsv(readFileSync(join(dir, 'points.csv'), 'utf8'));
    const at5 = (c: string) => rows.find((r) => r.config === c && r.error_prob === 0.05)!;
    expect(at5('hedge, hedge on failure').hedged_on_error_rate).toBeGreaterThan(0.03);
    expect(at5('hedge, first completion').failed_rate).toBeGreaterThan(
      at5('hedge, default budget').failed_rate!,
    );
    expect(row('hedge, hedge on failure · errors 5 %')).toMatch(/\| [3-5]\.\d\d % \|/);
  });

  it('a simulation without failures: no such columns', async () => {
    // (loneFailure "hedge-now" counts hedges on error even where nothing fails: its column would be there.)
    const dir = await simulated({ ...spec, configs: spec.configs.slice(0, 3) });
    const table = everyPointTable(readFileSync(join(dir, 'report.md'), 'utf8'));
    expect(table[0]).toContain('| rejected rate | utilisation |');
  });

  it('a run: each column as sim / real', async () => {
    const dir = await simulated({ ...spec, configs: spec.configs.slice(3), errorProbs: [0.05] });
    const [row] = parsePointsCsv(readFileSync(join(dir, 'points.csv'), 'utf8'));
    const point = {
      id: {
        config: row.config,
        load: row.load,
        cancellation: row.cancellation,
        seed: row.seed,
        error_prob: 0.05,
      },
      entry: { state: 'done' },
      sim: row,
      real: { ...row, failed_rate: 0.01, hedged_on_error_rate: null, send_lag_p99_ms: 0.5 },
      rows: [],
    } as unknown as PointAnalysis;
    const t = pointsTable({ points: [point] } as unknown as RunAnalysis);
    if (t.kind !== 'table') throw new Error('expected a table');
    const col = (h: string) => t.rows[0][t.head.indexOf(h)];
    expect(col('failed rate')).toMatch(/^\d\.\d\d % \/ 1\.00 %$/);
    expect(col('hedged on error')).toMatch(/ \/ —$/);
    expect(t.rows[0][0]).toBe('hedge, hedge on failure · errors 5 %');
  });
});
