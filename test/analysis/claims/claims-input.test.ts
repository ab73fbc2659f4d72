// Reading a folder for the claims: a run (every source, real rows with intervals, no calibration point),
// a simulation folder, and anything else refused as not a run.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collapseUndecided, readClaimsInput } from '../../../analysis/claims/index.ts';
import { detectCollapse } from '../../../contract/index.ts';
import { VERDICT_POINTS, writeFixtureRun } from '../fixture.ts';

let run: string;
let empty: string;

beforeAll(() => {
  run = writeFixtureRun(VERDICT_POINTS);
  empty = mkdtempSync(join(tmpdir(), 'hb-claims-'));
});

afterAll(() => {
  rmSync(run, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('readClaimsInput', () => {
  it('reads a run: sim and real rows, the real ones with their intervals, without the calibration point', () => {
    const input = readClaimsInput(run);
    expect(input.kind).toBe('run');
    expect(input.sources).toEqual(['sim', 'real']);
    expect(input.rows.some((r) => r.load === 0.1)).toBe(false);
    const real = input.rows.find((r) => r.source === 'real' && r.config === 'no hedge' && r.load === 0.5);
    expect(real?.ci?.p99_ms?.low).toBeLessThanOrEqual(real?.p99_ms ?? Number.NaN);
    expect(real?.ci?.p99_ms?.high ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(real?.p99_ms ?? 0);
    expect(input.rows.filter((r) => r.source === 'sim')[0].ci).toBeUndefined();
  });

  it('takes the rows of any other source from points.csv (sim+net) without code of its own', () => {
    const copy = writeFixtureRun(VERDICT_POINTS);
    try {
      const line = readFileSync(join(copy, 'points.csv'), 'utf8')
        .split('\n')[2]
        .replace(',sim,', ',sim+net,');
      appendFileSync(join(copy, 'points.csv'), `${line}\n`);
      const input = readClaimsInput(copy);
      expect(input.sources).toEqual(['sim', 'real', 'sim+net']);
      expect(input.rows.filter((r) => r.source === 'sim+net')).toHaveLength(1);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is not a run, saying what a run folder has', () => {
    expect(() => readClaimsInput(empty)).toThrow(/is not a run: it has neither manifest\.json/);
    let code: string | undefined;
    try {
      readClaimsInput(join(empty, 'nope'));
    } catch (err) {
      code = (err as { code: string }).code;
    }
    expect(code).toBe('HB_RUN_FOLDER_INVALID');
  });
});

describe('collapseUndecided', () => {
  const few = { length: 5, tMs: [0, 1, 2, 3, 4], queue: [1, 1, 1, 1, 1], inFlight: [1, 2, 3, 4, 5] };

  it('flags the criterion’s "too few samples" answer, and a point without a timeline', () => {
    const e = detectCollapse(few, { startMs: 0, endMs: 4 }, 16);
    expect(e.collapsed).toBe(false);
    expect(collapseUndecided(e, false)).toMatch(/^too few samples/);
    expect(collapseUndecided(null, false)).toBe('no queue timeline to judge a collapse');
  });

  it('accepts a decided verdict, and any collapse', () => {
    const n = 200;
    const drained = {
      length: n,
      tMs: Array.from({ length: n }, (_, i) => i),
      queue: Array.from({ length: n }, (_, i) => i % 2),
      inFlight: Array.from({ length: n }, () => 10),
    };
    expect(
      collapseUndecided(detectCollapse(drained, { startMs: 0, endMs: n - 1 }, 16), false),
    ).toBeUndefined();
    expect(collapseUndecided(null, true)).toBeUndefined();
  });
});
