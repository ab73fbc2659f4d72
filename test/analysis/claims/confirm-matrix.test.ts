// experiments/confirm.json gives every claim its points, no point fewer would do, and its schedule fits
// the hour the confirmation may take on one machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateClaims } from '../../../analysis/claims/index.ts';
import { parseMatrix } from '../../../model/index.ts';
import { planPoints } from '../../../orchestrator/index.ts';
import { studyRows } from './study-rows.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const matrix = parseMatrix(JSON.parse(readFileSync(join(ROOT, 'experiments', 'confirm.json'), 'utf8')));
const names = matrix.configs.map((c) => c.name);

/** Study-shaped rows of the points a matrix with these configs, loads and modes runs. */
function rowsOf(configs: string[], loads: number[], modes: string[]) {
  return studyRows().filter(
    (r) => configs.includes(r.config) && loads.includes(r.load) && modes.includes(r.cancellation),
  );
}

describe('experiments/confirm.json', () => {
  it('has every point each claim needs', () => {
    const results = evaluateClaims(rowsOf(names, matrix.loads, matrix.cancellation));
    expect(results.filter((r) => r.verdict !== 'holds').map((r) => r.summary)).toEqual([]);
  });

  it('has no load, mode or configuration a claim could do without', () => {
    const without = <T>(xs: T[], x: T) => xs.filter((y) => y !== x);
    const lacking = [
      ...matrix.loads.map((l) => rowsOf(names, without(matrix.loads, l), matrix.cancellation)),
      ...matrix.cancellation.map((m) => rowsOf(names, matrix.loads, without<string>(matrix.cancellation, m))),
      ...names.map((c) => rowsOf(without(names, c), matrix.loads, matrix.cancellation)),
    ];
    for (const rows of lacking) {
      expect(evaluateClaims(rows, ['sim']).some((r) => r.summary.includes('missing point'))).toBe(true);
    }
  });

  it("schedules at most 40 minutes of load, leaving the hour's rest for the harness's own work", () => {
    const ms = planPoints(matrix).reduce((t, p) => t + p.expectedMs, 0);
    expect(ms / 60_000).toBeLessThanOrEqual(40);
    expect(matrix.description).toContain(`schedule ${(ms / 60_000).toFixed(1)} min`);
  });
});
