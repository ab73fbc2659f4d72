// The comparison for a foreign service: the client-side metric list, where the hedge rate takes utilisation's
// place, judged by the same equivalence rule on the interval of two independent samples' difference.

import { describe, expect, it } from 'vitest';
import { comparePoint } from '../../analysis/judge/compare.ts';
import { CLIENT_METRICS, METRICS, type PointRow } from '../../contract/index.ts';
import { resolveMargins } from '../../model/index.ts';
import { pointRow } from './fixture.ts';

/** A row of the study's shape; a foreign service's real row has no utilisation. */
const row = (source: 'sim' | 'real', over: Partial<PointRow> = {}): PointRow =>
  pointRow(source, { ...(source === 'real' ? { utilization: null } : {}), ...over });
const margins = resolveMargins(undefined);

describe('client-side metrics', () => {
  it('compare the hedge rate where utilisation was, and leave METRICS as it was', () => {
    expect(METRICS).toContain('utilization');
    expect(CLIENT_METRICS).not.toContain('utilization');
    const id = { config: 'x', load: 0.5, cancellation: 'ignore' as const, seed: 1 };
    const rows = comparePoint(
      {
        id,
        sim: row('sim'),
        real: row('real', { hedge_rate: 0.2 }),
        intervals: null,
        diffs: { hedge_rate: { estimate: 0.15, low: 0.13, high: 0.17, n: 900 } },
        clientSide: true,
      },
      margins,
    );
    expect(rows.map((r) => r.metric)).toEqual([...CLIENT_METRICS]);
    const hedge = rows.find((r) => r.metric === 'hedge_rate')!;
    expect(hedge).toMatchObject({
      sim: 0.05,
      real: 0.2,
      margin: 0.01,
      diffCiLow: -0.17,
      verdict: 'diverges',
    });
    // Nothing paired, nothing decided: the other metrics are undecided, not agreed by default.
    expect(rows.find((r) => r.metric === 'p50')!.verdict).toBe('undecided');
    // Today's points compare as before: utilisation, no hedge rate.
    const own = comparePoint(
      { id, sim: row('sim'), real: row('real'), intervals: null, diffs: null },
      margins,
    );
    expect(own.map((r) => r.metric)).toEqual([...METRICS]);
  });
});
