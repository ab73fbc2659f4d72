// Matrix files: the shipped presets parse; bad files get one message per bad field naming the fix;
// expansion is complete and ordered.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  calibrationPoint,
  DEFAULT_MODEL,
  expandMatrix,
  MatrixInvalidError,
  overrideMatrix,
  parseMatrix,
  pointKey,
} from '../../model/index.ts';

const read = (f: string) =>
  JSON.parse(readFileSync(new URL(`../../experiments/${f}`, import.meta.url), 'utf8'));

function issuesOf(json: unknown): string[] {
  try {
    parseMatrix(json, 'test.json');
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    expect((e as MatrixInvalidError).code).toBe('HB_MATRIX_INVALID');
    expect((e as Error).message).toContain('test.json');
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix to be rejected');
}

const ok = {
  name: 'x',
  configs: ['no hedge'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
};

describe('matrix', () => {
  // A check added to the schema can make a committed matrix unrunnable; this is where that shows.
  it('parses every matrix the repository ships: the presets and the benchmark matrices', () => {
    for (const dir of ['../../experiments/', '../../bench/matrices/']) {
      const url = new URL(dir, import.meta.url);
      const files = readdirSync(url).filter((f) => f.endsWith('.json'));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const file = new URL(f, url);
        expect(() => parseMatrix(JSON.parse(readFileSync(file, 'utf8')), file.pathname), f).not.toThrow();
      }
    }
  });

  it('parses the reference study into 60 points per seed in a fixed order', () => {
    const m = parseMatrix(read('reference.json'));
    expect(m.configs.map((c) => c.name)).toHaveLength(6);
    expect(m.model).toEqual(DEFAULT_MODEL);
    const pts = expandMatrix(m);
    expect(pts).toHaveLength(120);
    expect(new Set(pts.map(pointKey)).size).toBe(120);
    expect(pointKey(pts[0])).toBe('no hedge|0.30|ignore|1');
    expect(pointKey(pts[1])).toBe('no hedge|0.50|ignore|1');
    expect(pointKey(pts[5])).toBe('hedge, no budget|0.30|ignore|1');
    expect(pointKey(pts[30])).toBe('no hedge|0.30|propagate|1');
    expect(pointKey(pts[60])).toBe('no hedge|0.30|ignore|2');
    expect(pts.every((p) => p.calls === 200_000 && p.warmupFraction === 0.1)).toBe(true);
    const cal = calibrationPoint(m)!;
    expect(pointKey(cal)).toBe('no hedge|0.10|ignore|1');
    expect(cal.calls).toBe(1000);
  });

  it('parses the quick preset and applies command-line overrides', () => {
    const m = parseMatrix(read('quick.json'));
    expect(expandMatrix(m)).toHaveLength(8);
    const o = overrideMatrix(m, { calls: 500, seeds: [7] });
    expect(expandMatrix(o).every((p) => p.calls === 500 && p.seed === 7)).toBe(true);
    expect(() => overrideMatrix(m, { calls: 1 })).toThrow(/calls/);
  });

  it('fills defaults: warm-up 0.1, default model, default calibration; false turns calibration off', () => {
    const m = parseMatrix({ ...ok, model: { workers: 4 } });
    expect(m.warmupFraction).toBe(0.1);
    expect(m.model).toEqual({ ...DEFAULT_MODEL, workers: 4 });
    expect(m.calibration).toEqual({ load: 0.1, calls: 1000 });
    expect(calibrationPoint(parseMatrix({ ...ok, calibration: false }))).toBeNull();
    // a matrix that already has the calibration point's key needs no extra one
    expect(calibrationPoint(parseMatrix({ ...ok, loads: [0.1] }))).toBeNull();
  });

  it('accepts a user configuration object', () => {
    const m = parseMatrix({ ...ok, configs: [{ name: 'mine', hedge: { delayMs: 15, maxAttempts: 2 } }] });
    expect(m.configs[0]).toEqual({ name: 'mine', hedge: { delayMs: 15, maxAttempts: 2 } });
  });

  it('names the field and the fix for each bad value', () => {
    expect(issuesOf({ ...ok, configs: ['hedge'] })[0]).toMatch(/^configs\[0\]: .*no hedge/);
    expect(issuesOf({ ...ok, loads: [0.5, -1] })[0]).toMatch(/^loads\[1\]: must be ≥ 0\.01/);
    expect(issuesOf({ ...ok, cancellation: ['drop'] })[0]).toMatch(
      /^cancellation\[0\]: must be 'ignore' or 'propagate'/,
    );
    expect(issuesOf({ ...ok, calls: 2.5 })[0]).toMatch(/^calls: must be a whole number/);
    expect(issuesOf({ ...ok, seeds: undefined })[0]).toMatch(/^seeds: is required/);
    expect(issuesOf({ ...ok, model: { wokers: 3 } })[0]).toMatch(/^model: unknown field\(s\) "wokers"/);
    expect(issuesOf({ ...ok, configs: [{ name: 'a', hedge: { delayMs: 0 } }] })[0]).toMatch(
      /^configs\[0\]\.hedge\.delayMs: must be > 0/,
    );
    expect(issuesOf({ ...ok, loads: [0.5, 0.501] })[0]).toMatch(/^loads: two loads print as 0.50/);
    expect(issuesOf({ ...ok, configs: ['no hedge', { name: 'no hedge' }] })[0]).toMatch(/appears twice/);
    expect(issuesOf({ ...ok, model: { stragglerMinMs: 50, stragglerMaxMs: 10 } })[0]).toMatch(
      /^model.stragglerMaxMs/,
    );
    expect(issuesOf({ ...ok, calls: 'many', seeds: [] })).toHaveLength(2);
    expect(issuesOf(42)[0]).toMatch(/^\(top level\): must be object/);
  });
});

describe('matrix failOn (the gate)', () => {
  it('is absent unless given, so manifests of ungated runs stay as they were', () => {
    expect('failOn' in parseMatrix(ok)).toBe(false);
    expect(parseMatrix({ ...ok, failOn: ['diverges', 'invalid', 'diverges'] }).failOn).toEqual([
      'diverges',
      'invalid',
    ]);
  });

  it('names a verdict it cannot fail on, and the ones it can', () => {
    const issues = issuesOf({ ...ok, failOn: ['diverges', 'agrees'] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(
      /^failOn\[1\]: must be one of 'diverges', 'undecided', 'invalid', 'collapse-mismatch', 'missing'/,
    );
  });

  it('survives --calls / --seed overrides', () => {
    expect(overrideMatrix(parseMatrix({ ...ok, failOn: ['invalid'] }), { calls: 50 }).failOn).toEqual([
      'invalid',
    ]);
  });
});
