// What the orchestrator sets a target server to for a point (targetConfigOf): the model as the simulation has
// it, or, for a perturbed point, the service the perturbation makes of it — fewer workers, slower service or
// stragglers, cancels dropped, a wait before each answer — in a body the target's own schema accepts.
import { describe, expect, it } from 'vitest';
import { targetConfigSchema } from '../../contract/index.ts';
import { DEFAULT_MODEL, expandMatrix, parseMatrix, replicaSetupOf } from '../../model/index.ts';
import { targetConfigOf } from '../../orchestrator/point/point-targets.ts';

const matrix = parseMatrix(
  {
    name: 't',
    configs: ['no hedge'],
    loads: [0.5],
    cancellation: ['propagate'],
    seeds: [1],
    calls: 100,
    timeScale: [10],
    perturb: [{}, { serviceFactor: 1.03, workersDelta: -1, dropCancellation: true, responseDelayMs: 1 }],
  },
  't.json',
);
const [plain, perturbed] = expandMatrix(matrix);
const of = (p: typeof plain) => targetConfigOf(p, replicaSetupOf(p.dims), 0, 'run', 'slug');

describe('targetConfigOf', () => {
  it('an unperturbed point: the model, its cancellation, no wait; the time scale for the target to dilate by', () => {
    const c = of(plain);
    expect(c).toMatchObject({ workers: 16, cancellation: 'propagate', responseDelayMs: 0, timeScale: 10 });
    expect(c.model).toEqual({ ...DEFAULT_MODEL, service: null });
    expect(targetConfigSchema.parse(c)).toEqual(c);
  });

  it('a perturbed point: the perturbed service, in model time (the target dilates it as any model)', () => {
    const c = of(perturbed);
    expect(c).toMatchObject({
      workers: 15,
      cancellation: 'ignore',
      responseDelayMs: 1,
      timeScale: 10,
      seed: 1,
    });
    expect(c.model.medianMs).toBeCloseTo(10.3, 12);
    expect(c.model.stragglerMaxMs).toBeCloseTo(309, 12);
    expect(targetConfigSchema.parse(c)).toEqual(c);
  });
});
