// The errorProbs dimension (model/error-probs.ts): each value sets the point's model.errorProb, 0 leaves the
// point exactly as without the dimension (model, key, slug, rows), bad values get one message each naming the
// field and the fix, and the real side gets the same model as the simulator — the target's config and the
// load generator's schedule (arrivals use E[hold], which failures change).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePointSpec, pointSpecJson } from '../../contract/index.ts';
import { resolveOptions } from '../../loadgen/loadgen-options.ts';
import { pointSchedule } from '../../loadgen/point-schedule.ts';
import {
  ArrivalSchedule,
  calibrationPoints,
  dilatePoint,
  errorProbsNotes,
  expandMatrix,
  labelWithDims,
  MatrixInvalidError,
  parseMatrix,
  pointKey,
  pointSlug,
  replicaSetupOf,
} from '../../model/index.ts';
import { loadgenSpec } from '../../orchestrator/agents/loadgen-agent.ts';
import { targetConfigOf } from '../../orchestrator/point/point-targets.ts';
import { simulateMatrix } from '../../simulator/index.ts';

const base = {
  name: 'errors',
  configs: ['no hedge', 'hedge, default budget'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 3000,
  calibration: false,
};

function issuesOf(json: unknown): string[] {
  try {
    parseMatrix(json, 'test.json');
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix to be rejected');
}

const tmp = mkdtempSync(join(tmpdir(), 'hb-errprob-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('errorProbs in a matrix', () => {
  const m = parseMatrix({
    ...base,
    errorProbs: [0, 0.01, 0.05],
    model: { errorMs: 2, errorCorrelation: 0.5 },
  });
  const points = expandMatrix(m);

  it('runs every configuration once per probability; 0 is the point without the dimension, model and all', () => {
    const plain = expandMatrix(parseMatrix(base));
    expect(points.map(pointKey)).toEqual([
      'no hedge|0.50|ignore|1',
      'no hedge|0.50|ignore|1|e=0.01',
      'no hedge|0.50|ignore|1|e=0.05',
      'hedge, default budget|0.50|ignore|1',
      'hedge, default budget|0.50|ignore|1|e=0.01',
      'hedge, default budget|0.50|ignore|1|e=0.05',
    ]);
    expect(points.map(pointSlug)[1]).toBe('no-hedge_0.50_ignore_s1_e0p01');
    expect(points[0]).toEqual(plain[0]);
    expect(points[3]).toEqual(plain[1]);
    // The failures' shape stays the model's; only the probability is the point's.
    expect(points[2].model).toMatchObject({ errorProb: 0.05, errorMs: 2, errorCorrelation: 0.5 });
    expect(points[2].dims).toEqual({ errorProb: 0.05 });
    expect(labelWithDims('no hedge', points[1].dims)).toBe('no hedge · errors 1 %');
    expect(labelWithDims('no hedge', points[2].dims)).toBe('no hedge · errors 5 %');
    // Nothing fails at the calibration point.
    const cal = calibrationPoints(
      parseMatrix({
        ...base,
        calibration: { load: 0.1, calls: 1000 },
        errorProbs: [0.05],
        model: { errorMs: 2 },
      }),
    );
    expect(cal[0].model).not.toHaveProperty('errorProb');
    expect(cal[0].model).not.toHaveProperty('errorMs');
  });

  it('gives one message per bad value, naming the field and the fix', () => {
    expect(issuesOf({ ...base, errorProbs: [1] })).toEqual([
      expect.stringMatching(/^errorProbs\[0\]: must be in \[0, 1\)/),
    ]);
    expect(issuesOf({ ...base, errorProbs: [-0.1] })).toEqual([
      expect.stringMatching(/^errorProbs\[0\]: must be in \[0, 1\)/),
    ]);
    expect(issuesOf({ ...base, errorProbs: [] })).toEqual([
      expect.stringMatching(/^errorProbs: must list at least one/),
    ]);
    expect(issuesOf({ ...base, errorProbs: [0.01, 0.01] })).toEqual([
      'errorProbs: 0.01 appears twice; list each probability once',
    ]);
    expect(issuesOf({ ...base, errorProbs: [0, 0.01], model: { errorProb: 0.02 } })).toEqual([
      expect.stringMatching(/^errorProbs: the model already sets errorProb 0.02.*drop model\.errorProb/),
    ]);
    // errorMs has a use when the sweep fails attempts, and none when it does not.
    expect(issuesOf({ ...base, errorProbs: [0], model: { errorMs: 2 } })).toEqual([
      expect.stringMatching(/^model\.errorMs: has no effect without model\.errorProb > 0/),
    ]);
  });

  it('is allowed with a foreign target, which fails by itself: the plan says so', () => {
    const f = parseMatrix({ ...base, errorProbs: [0, 0.05], target: { url: 'http://127.0.0.1:9/x' } });
    expect(expandMatrix(f)).toHaveLength(4);
    expect(errorProbsNotes(f)).toEqual([expect.stringMatching(/cannot make your service fail/)]);
    expect(errorProbsNotes(m)).toEqual([]);
  });

  it("reaches the target server and the load generator's schedule as the simulator has it", () => {
    const p = parseMatrix({ ...base, errorProbs: [0.05], timeScale: [10], model: { errorMs: 2 } });
    const [point] = expandMatrix(p);
    const target = targetConfigOf(point, replicaSetupOf(point.dims), 0, 'run', 'slug');
    expect(target.model).toMatchObject({ errorProb: 0.05, errorMs: 2 });
    const spec = parsePointSpec(
      pointSpecJson(
        loadgenSpec({
          deployed: { root: '/x', node: 'node', entry: 'e' } as never,
          targetUrl: 'http://127.0.0.1:1',
          point,
          redisUrl: 'redis://127.0.0.1:1',
          run: 'run',
          slug: 'slug',
          maxSeconds: 10,
        }),
      ),
    );
    const o = resolveOptions({ ...spec, openFiles: null });
    const real = pointSchedule(o, 1);
    const sim = ArrivalSchedule.forPoint(dilatePoint(point));
    expect(real.ratePerMs).toBe(sim.ratePerMs);
    for (const i of [0, 1, 1000, point.calls - 1]) expect(real.intended[i]).toBe(sim.at(i));
    // Failures change E[hold], so the rate is not the one without them.
    const [noErrors] = expandMatrix(parseMatrix({ ...base, timeScale: [10] }));
    expect(ArrivalSchedule.forPoint(dilatePoint(noErrors)).ratePerMs).not.toBe(sim.ratePerMs);
  });

  it('adds the error_prob column, empty at 0, and leaves the rows at 0 byte for byte as without it', async () => {
    const swept = await simulateMatrix(parseMatrix({ ...base, errorProbs: [0, 0.05] }), join(tmp, 'swept'), {
      threads: 0,
    });
    const plain = await simulateMatrix(parseMatrix(base), join(tmp, 'plain'), { threads: 0 });
    const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n');
    const [head, ...rows] = lines(swept.pointsCsvPath);
    const [plainHead, ...plainRows] = lines(plain.pointsCsvPath);
    // hedged_on_error_rate (a row of a failing model has it) before the dimension, error_prob last.
    expect(head).toBe(`${plainHead},hedged_on_error_rate,error_prob`);
    const at0 = rows.filter((r) => r.endsWith(',,'));
    expect(at0.map((r) => r.slice(0, -2))).toEqual(plainRows);
    const failing = rows.filter((r) => r.endsWith(',0.05'));
    expect(failing).toHaveLength(2);
  });
});
