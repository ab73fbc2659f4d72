// The fidelity curve (analysis/report/time-scale-report.ts): agreement per time scale and load, and the k from
// which the real clock agrees.
import { describe, expect, it } from 'vitest';
import type { PointAnalysis } from '../../analysis/judge/point-analysis.ts';
import { agreesFrom, fidelityCurve } from '../../analysis/report/time-scale-report.ts';
import type { ComparisonRow } from '../../contract/index.ts';

function point(k: number, load: number, verdicts: ComparisonRow['verdict'][]): PointAnalysis {
  return {
    entry: { load, ...(k === 1 ? {} : { dims: { timeScale: k } }) },
    rows: verdicts.map((verdict) => ({ verdict })),
  } as unknown as PointAnalysis;
}

describe('the fidelity curve', () => {
  const points = [
    point(1, 0.5, ['agrees', 'invalid', 'invalid', 'diverges']),
    point(1, 0.95, ['both-collapsed', 'both-collapsed']),
    point(5, 0.5, ['agrees', 'agrees', 'agrees', 'diverges']),
    point(5, 0.95, ['agrees', 'agrees']),
    point(10, 0.5, ['agrees', 'agrees', 'agrees', 'agrees']),
    point(10, 0.95, ['agrees', 'agrees']),
  ];

  it('counts agreeing metrics per k and per load, leaving both-collapsed out', () => {
    const c = fidelityCurve(points);
    expect(c.map((x) => [x.k, x.agrees, x.metrics])).toEqual([
      [1, 1, 4],
      [5, 5, 6],
      [10, 6, 6],
    ]);
    expect(c[0].byLoad.get('0.95')).toEqual({ agrees: 0, metrics: 0 });
    expect(c[1].byLoad.get('0.50')).toEqual({ agrees: 3, metrics: 4 });
  });

  it('names the k from which every larger k agrees at 90 % or more', () => {
    expect(agreesFrom(fidelityCurve(points))).toBe(10);
    const better = [
      ...points.slice(0, 2),
      point(5, 0.5, ['agrees', 'agrees', 'agrees', 'agrees']),
      ...points.slice(3),
    ];
    expect(agreesFrom(fidelityCurve(better))).toBe(5);
    expect(agreesFrom(fidelityCurve(points.slice(0, 2)))).toBeNull();
  });
});
