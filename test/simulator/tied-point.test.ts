// Tied requests over a whole point (runPoint, simulateMatrix): cancel `on-response` is the hedge with the same
// delay, row for row; the rows of a tied point say their extra work and its SimResult what its peer cancels
// did; the same seed gives the same bytes; the dilated clock and a network between servers do what they say;
// points.csv gains its `extra_service_share` column only when some point is tied.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatPointRow, formatPointsCsv, type PointRow, parsePointsCsv } from '../../contract/index.ts';
import {
  type Cancellation,
  constantTransport,
  DEFAULT_MODEL,
  type HedgeConfig,
  type Point,
  parseMatrix,
} from '../../model/index.ts';
import { runPoint, simulateMatrix } from '../../simulator/index.ts';

function point(config: HedgeConfig, load: number, cancellation: Cancellation, dims = {}): Point {
  return {
    config,
    load,
    cancellation,
    seed: 3,
    calls: 20_000,
    warmupFraction: 0.1,
    model: DEFAULT_MODEL,
    dims: { replicas: 4, ...dims },
  };
}

/** The row without the columns a configuration's kind changes (its name, tied's extra work). */
const metrics = (r: PointRow) => {
  const { config: _c, extra_service_share: _e, ...rest } = r;
  return rest;
};

const TIED1: HedgeConfig = { name: 'tied, gap 1 ms', tied: { gapMs: 1, budgetPercent: 0 } };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('tied requests over a point', () => {
  for (const mode of ['ignore', 'propagate'] as const) {
    for (const [load, dims] of [
      [0.5, {}],
      [0.85, { correlation: 0.5 }],
      [0.95, { balancer: 'two-choices' }],
    ] as const) {
      it(`${mode}, load ${load} ${JSON.stringify(dims)}: cancel on-response equals the hedge with delay gapMs, row for row`, () => {
        const hedge = runPoint(point({ name: 'h', hedge: { delayMs: 20 } }, load, mode, dims));
        const tied = runPoint(
          point({ name: 't', tied: { gapMs: 20, cancel: 'on-response' } }, load, mode, dims),
        );
        expect(metrics(tied.row)).toEqual(metrics(hedge.row));
        expect(tied.pool).toEqual(hedge.pool);
        expect(tied.extraServiceShare).toBe(hedge.extraServiceShare);
        expect(tied.row.extra_service_share).toBe(hedge.extraServiceShare);
        expect(hedge.row.extra_service_share).toBeUndefined();
        expect(tied.tied).toBeUndefined();
      });
    }
  }

  it('a tied point counts its peer cancels and its extra work; the same seed gives the same bytes', () => {
    const p = point({ name: 'tied, gap 0 ms', tied: { gapMs: 0, budgetPercent: 0 } }, 0.7, 'propagate');
    const a = runPoint(p);
    const b = runPoint(p);
    expect(formatPointRow(a.row)).toBe(formatPointRow(b.row));
    expect(a.tied).toEqual(b.tied);
    const n = a.row.measured_calls;
    const c = a.tied!;
    expect(a.row.requests_per_call).toBe(2);
    // Each measured call's two copies settle their pair once: removed, or both ran (too late).
    expect(c.removedQueued + c.droppedOnArrival + c.tooLate).toBe(n);
    expect(c.callsBothRan).toBe(c.tooLate);
    expect(c.removedQueued).toBeGreaterThan(0);
    expect(c.tooLate).toBeGreaterThan(0);
    expect(a.row.extra_service_share).toBe(a.extraServiceShare);
    expect(a.extraServiceShare!).toBeGreaterThan(0);
    expect(a.extraServiceShare!).toBeLessThan(0.5);
    // Every copy ended once; a peer removed a queued one in propagate as in ignore mode.
    expect(a.pool.served + a.pool.cancelledQueued + a.pool.cancelledInService).toBe(a.pool.submitted);
  });

  it('gap 1 ms with instant cancels: one copy of each call runs, so there is no extra work', () => {
    for (const mode of ['ignore', 'propagate'] as const) {
      const tied = runPoint(point(TIED1, 0.5, mode));
      expect(tied.extraServiceShare).toBe(0);
      expect(tied.tied!.callsBothRan).toBe(0);
      expect(tied.tied!.tooLate).toBe(0);
      // Mostly the first copy starts at once and the second is dropped on arrival; else it waits, queued.
      const c = tied.tied!;
      expect(c.droppedOnArrival + c.removedQueued).toBe(tied.row.measured_calls);
      expect(c.droppedOnArrival).toBeGreaterThan(0.9 * tied.row.measured_calls);
    }
  });

  it('a cancel slower than the gap lets both copies start; the dilated clock leaves the counts alone', () => {
    const fast = runPoint(point(TIED1, 0.5, 'propagate'), { transport: constantTransport(0.5) });
    const slow = runPoint(point(TIED1, 0.5, 'propagate'), { transport: constantTransport(2) });
    expect(fast.row.source).toBe('sim+net');
    // Both run only when the first copy waited in its queue long enough for the second to start elsewhere.
    expect(fast.tied!.callsBothRan).toBeLessThan(0.01 * fast.row.measured_calls);
    expect(slow.tied!.callsBothRan).toBeGreaterThan(0.9 * slow.row.measured_calls);
    expect(slow.extraServiceShare!).toBeGreaterThan(0.3);
    const k5 = runPoint(
      { ...point(TIED1, 0.5, 'propagate'), dims: { replicas: 4, timeScale: 5 } },
      {
        transport: constantTransport(2),
      },
    );
    expect(k5.tied).toEqual(slow.tied);
    expect(k5.row.requests_per_call).toBe(slow.row.requests_per_call);
    expect(k5.extraServiceShare!).toBeCloseTo(slow.extraServiceShare!, 9);
  });

  it('a tied point with fewer replicas than copies is refused', () => {
    expect(() => runPoint(point(TIED1, 0.5, 'ignore', { replicas: 1 }))).toThrow(
      /tied\.copies = 2 is invalid: needs as many replicas as copies/,
    );
  });
});

describe('points.csv and extra_service_share', () => {
  const matrix = (configs: unknown[]) =>
    parseMatrix({
      name: 't',
      configs,
      loads: [0.5],
      replicas: [2],
      cancellation: ['propagate'],
      seeds: [1],
      calls: 2000,
    });

  it('appears only in files where some point is tied, and then on every row', async () => {
    const out = mkdtempSync(join(tmpdir(), 'hb-tied-'));
    dirs.push(out);
    const r = await simulateMatrix(matrix(['no hedge', 'hedge, default budget', TIED1]), join(out, 'a'), {
      threads: 0,
    });
    const text = readFileSync(r.pointsCsvPath, 'utf8');
    expect(text.split('\n')[0]).toMatch(/,valid,extra_service_share,replicas$/);
    const rows = parsePointsCsv(text);
    expect(rows.map((x) => x.extra_service_share)).toEqual(
      r.results.map((x) => Number(x.extraServiceShare!.toFixed(5))),
    );
    expect(rows[0].extra_service_share).toBe(0);
    expect(rows[1].extra_service_share!).toBeGreaterThan(0);
    expect(formatPointsCsv(rows)).toBe(text);

    const plain = await simulateMatrix(matrix(['no hedge', 'hedge, default budget']), join(out, 'b'), {
      threads: 0,
    });
    const head = readFileSync(plain.pointsCsvPath, 'utf8').split('\n')[0];
    expect(head).toMatch(/,valid,replicas$/);
    expect(parsePointsCsv(readFileSync(plain.pointsCsvPath, 'utf8'))[0]).not.toHaveProperty(
      'extra_service_share',
    );
  });

  it('reads back an empty cell as null and refuses a column out of place', () => {
    const text = formatPointsCsv([]).replace('\n', ',extra_service_share\n');
    expect(parsePointsCsv(text)).toEqual([]);
    expect(() => parsePointsCsv(formatPointsCsv([]).replace('valid', 'extra_service_share,valid'))).toThrow(
      /header must be exactly/,
    );
  });
});
