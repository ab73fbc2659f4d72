// The run plan and the matrix file: run order, keys and slugs, --calls/--seed, errors that name the field.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMatrix } from '../../model/index.ts';
import { loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import { ROOT, rmTemp, tempDir } from './fixture.ts';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmTemp(dir));

describe('planPoints', () => {
  it('puts the calibration point first, then the matrix in its own order, with expected durations', async () => {
    const m = await loadMatrixFile(join(ROOT, 'experiments', 'quick.json'));
    const plan = planPoints(m);
    expect(plan).toHaveLength(1 + 2 * 2 * 2);
    expect(plan[0]).toMatchObject({ calibration: true, key: 'no hedge|0.10|ignore|1|x=10' });
    expect(plan.slice(1).every((p) => !p.calibration)).toBe(true);
    expect(plan.map((p) => p.index)).toEqual([...plan.keys()]);
    expect(new Set(plan.map((p) => p.slug)).size).toBe(plan.length);
    // λ = load · workers / E[S]: at the same calls, a heavier load ends sooner.
    const at = (load: string) => plan.find((p) => p.key === `no hedge|${load}|ignore|1|x=10`)!.expectedMs;
    expect(at('0.50')).toBeGreaterThan(at('0.95'));
  });

  it('refuses two configuration names that become the same file name', () => {
    const m = parseMatrix({
      name: 'clash',
      configs: [{ name: 'Hedge A' }, { name: 'hedge-a' }],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 100,
      calibration: false,
    });
    expect(() => planPoints(m)).toThrow(/Hedge A.*hedge-a.*hedge-a_0\.50_ignore_s1/s);
  });
});

describe('loadMatrixFile', () => {
  it('applies --calls and --seed to the matrix actually run', async () => {
    const m = await loadMatrixFile(join(ROOT, 'experiments', 'quick.json'), { calls: 200, seeds: [7] });
    expect(m.calls).toBe(200);
    expect(m.seeds).toEqual([7]);
    expect(planPoints(m).every((p) => p.point.seed === 7)).toBe(true);
  });

  it('names a missing file, a non-JSON file and a bad field', async () => {
    await expect(loadMatrixFile(join(dir, 'nope.json'))).rejects.toMatchObject({
      code: 'HB_MATRIX_INVALID',
      message: expect.stringContaining('cannot be read'),
    });
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'b',
        configs: ['no hedge'],
        loads: [0.5],
        cancellation: ['sideways'],
        seeds: [1],
        calls: 100,
      }),
    );
    await expect(loadMatrixFile(bad)).rejects.toMatchObject({
      message: expect.stringContaining('cancellation[0]'),
    });
    await expect(loadMatrixFile(join(ROOT, 'experiments', 'quick.json'), { calls: 3 })).rejects.toMatchObject(
      {
        message: expect.stringContaining('calls'),
      },
    );
  });
});
