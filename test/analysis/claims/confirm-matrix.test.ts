// experiments/confirm.json gives claims 1–6 their points and experiments/delay-sweep.json claim 7's; no
// point fewer would do, and together their schedules fit the hour the confirmation may take on one machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateClaims } from '../../../analysis/claims/index.ts';
import { parseMatrix } from '../../../model/index.ts';
import { planPoints } from '../../../orchestrator/index.ts';
import { studyRows } from './study-rows.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (name: string) => parseMatrix(JSON.parse(readFileSync(join(ROOT, 'experiments', name), 'utf8')));
const matrix = read('confirm.json');
const sweep = read('delay-sweep.json');
const names = matrix.configs.map((c) => c.name);
const scheduleMin = (m: typeof matrix) => planPoints(m).reduce((t, p) => t + p.expectedMs, 0) / 60_000;

/** Study-shaped rows of the points a matrix with these configs, loads, modes and delays runs. */
function rowsOf(configs: string[], loads: number[], modes: string[], delays?: (number | string)[]) {
  return studyRows().filter(
    (r) =>
      configs.includes(r.config) &&
      loads.includes(r.load) &&
      modes.includes(r.cancellation) &&
      (r.delay_ms == null || (delays ?? []).includes(Number(r.delay_ms))),
  );
}

describe('experiments/confirm.json', () => {
  it('has every point claims 1–6 need, and names the preset claim 7 needs', () => {
    const results = evaluateClaims(rowsOf(names, matrix.loads, matrix.cancellation));
    expect(results.filter((r) => r.verdict !== 'holds').map((r) => r.claim)).toEqual([7]);
    expect(results[6].summary).toContain('run e.g. experiments/delay-sweep.json');
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

  it("schedules, with the delay sweep, at most 48 minutes of load, leaving the hour's rest to the harness", () => {
    expect(scheduleMin(matrix) + scheduleMin(sweep)).toBeLessThanOrEqual(48);
    expect(matrix.description).toContain(`schedule ${scheduleMin(matrix).toFixed(1)} min`);
  });
});

describe('experiments/delay-sweep.json', () => {
  const configs = sweep.configs.map((c) => c.name);

  it('sweeps 5, 10, 20 and 40 ms at 0.50 and 0.85, and decides claim 7', () => {
    expect(sweep.delaysMs).toEqual([5, 10, 20, 40]);
    expect(sweep.loads).toEqual([0.5, 0.85]);
    const results = evaluateClaims(rowsOf(configs, sweep.loads, sweep.cancellation, sweep.delaysMs), ['sim']);
    expect(results.find((r) => r.claim === 7)?.verdict).toBe('holds');
    expect(sweep.description).toContain(`schedule ${scheduleMin(sweep).toFixed(1)} min`);
  });

  it('has no load or configuration claim 7 could do without', () => {
    const cut = [
      ...sweep.loads.map((l) =>
        rowsOf(
          configs,
          sweep.loads.filter((x) => x !== l),
          ['ignore'],
          sweep.delaysMs,
        ),
      ),
      ...configs.map((c) =>
        rowsOf(
          configs.filter((x) => x !== c),
          sweep.loads,
          ['ignore'],
          sweep.delaysMs,
        ),
      ),
    ];
    for (const rows of cut) {
      expect(evaluateClaims(rows, ['sim']).find((r) => r.claim === 7)?.verdict).toBe('inconclusive');
    }
  });
});
