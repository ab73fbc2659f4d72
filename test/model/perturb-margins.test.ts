// The verdict's own settings in the matrix: `margins` (each in (0, cap], named metrics only) and `perturb`
// (the real side made wrong on purpose): what a perturbation does to the service, the configuration and the
// cancellation, that points carry it in their key and slug, that the simulation never sees it, and that bad
// input gets one error naming the field and the fix.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL,
  expandMatrix,
  MatrixInvalidError,
  parseMatrix,
  parsePerturbation,
  perturbationText,
  perturbedCancellation,
  perturbedConfig,
  perturbedModel,
  pointKey,
  pointSlug,
  referenceConfig,
  resolveMargins,
} from '../../model/index.ts';
import { runPoints } from '../../simulator/index.ts';

const base = {
  name: 'sens',
  configs: ['no hedge', 'hedge, default budget'],
  loads: [0.5],
  cancellation: ['propagate'],
  seeds: [1],
  calls: 600,
};

function issuesOf(json: unknown): string[] {
  try {
    parseMatrix(json, 'sens.json');
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix to be rejected');
}

describe('margins', () => {
  it('default to every cap; a matrix may narrow any of them', () => {
    expect(parseMatrix(base, 'sens.json').margins).toBeUndefined();
    const m = parseMatrix({ ...base, margins: { p99: 0.01, utilization: 0.005 } }, 'sens.json');
    expect(resolveMargins(m.margins)).toMatchObject({
      p50: 0.02,
      p99: 0.01,
      'p99.9': 0.05,
      utilization: 0.005,
    });
  });

  it('a margin ≤ 0, above its cap, or of an unknown metric: one error each, naming the field and the fix', () => {
    expect(issuesOf({ ...base, margins: { p50: 0 } })).toEqual([
      'margins.p50: must be > 0 (a fraction of the simulated value: 0.02 = 2 %); a margin of 0 could never be met',
    ]);
    expect(issuesOf({ ...base, margins: { p99: 3 } })[0]).toBe(
      'margins.p99: must be ≤ 0.03 (a fraction of the simulated value: 0.03 = 3 %): a wider margin would call results the same that this harness can tell apart',
    );
    expect(issuesOf({ ...base, margins: { rejected_rate: 0.01 } })[0]).toMatch(
      /^margins\.rejected_rate: must be ≤ 0\.005 \(an absolute difference/,
    );
    expect(issuesOf({ ...base, margins: { p95: 0.02 } })[0]).toMatch(/^margins: unknown field\(s\) "p95"/);
  });
});

describe('perturb', () => {
  const matrix = parseMatrix(
    {
      ...base,
      perturb: [
        {},
        { serviceFactor: 1.03 },
        { workersDelta: -1, stragglerFactor: 1.1 },
        { dropCancellation: true },
      ],
    },
    'sens.json',
  );
  const points = expandMatrix(matrix);

  it('multiplies the points, each carrying its perturbation in its key and slug; {} is the point as it was', () => {
    expect(points).toHaveLength(8);
    const plain = expandMatrix(parseMatrix(base, 'sens.json'));
    expect(points.slice(0, 2).map(pointKey)).toEqual(plain.map(pointKey));
    expect(pointKey(points[2])).toBe('no hedge|0.50|propagate|1|p=serviceFactor=1.03');
    expect(pointSlug(points[2])).toBe('no-hedge_0.50_propagate_s1_pservicefactor-1p03');
    expect(pointKey(points[4])).toBe('no hedge|0.50|propagate|1|p=stragglerFactor=1.1+workersDelta=-1');
    // The sign of a negative delta is kept apart from its name in the slug.
    expect(pointSlug(points[4])).toBe('no-hedge_0.50_propagate_s1_pstragglerfactor-1p1-workersdelta-m1');
    expect(pointSlug({ ...points[4], dims: { perturb: 'workersDelta=1' } })).not.toBe(
      pointSlug({ ...points[4], dims: { perturb: 'workersDelta=-1' } }),
    );
  });

  it('its text reads back as the perturbation it names', () => {
    for (const p of [
      { serviceFactor: 1.03 },
      { workersDelta: -1, stragglerFactor: 1.1 },
      { dropCancellation: true },
    ])
      expect(parsePerturbation(perturbationText(p))).toEqual(p);
    expect(perturbationText({})).toBe('');
    expect(() => parsePerturbation('speed=2')).toThrow(/unknown perturbation knob "speed"/);
  });

  it('changes the service the target runs, the hedge delay the generator uses, or the cancellation it applies', () => {
    const m = perturbedModel(DEFAULT_MODEL, { serviceFactor: 1.03, stragglerFactor: 1.1, workersDelta: -1 });
    expect(m).toMatchObject({ workers: 15, sigma: 0.25, stragglerProb: 0.02 });
    expect(m.medianMs).toBeCloseTo(10.3, 12);
    expect(m.stragglerMinMs).toBeCloseTo(113.3, 12);
    expect(m.stragglerMaxMs).toBeCloseTo(339.9, 12);
    const hedged = referenceConfig('hedge, default budget')!;
    expect(perturbedConfig(hedged, { hedgeDelayFactor: 1.25 }).hedge?.delayMs).toBe(25);
    expect(perturbedConfig(referenceConfig('no hedge')!, { hedgeDelayFactor: 1.25 })).toEqual(
      referenceConfig('no hedge'),
    );
    expect(perturbedCancellation('propagate', { dropCancellation: true })).toBe('ignore');
    expect(perturbedCancellation('propagate', { responseDelayMs: 1 })).toBe('propagate');
  });

  it('the simulation never sees it: each perturbed point simulates exactly as its unperturbed one', async () => {
    const rows = (await runPoints(points, { threads: 0 })).map((r) => r.row);
    const values = (i: number) => {
      const { perturb: _, ...rest } = rows[i] as (typeof rows)[number] & { perturb?: string };
      return rest;
    };
    for (let i = 2; i < rows.length; i++) expect(values(i), pointKey(points[i])).toEqual(values(i % 2));
    expect((rows[2] as { perturb?: string }).perturb).toBe('serviceFactor=1.03');
  });

  it('bad input: one error each, naming the field and the fix', () => {
    expect(issuesOf({ ...base, perturb: [{ workersDelta: -16 }] })).toEqual([
      "perturb[0].workersDelta: -16 leaves 0 workers of the model's 16; a target needs at least 1 (use a delta ≥ -15)",
    ]);
    expect(
      issuesOf({ ...base, perturb: [{ serviceFactor: 1.03 }], target: { url: 'http://127.0.0.1:8080/x' } }),
    ).toContain(
      "perturb: hedgebench cannot perturb a service it did not deploy (target.url): the perturbations change its own target server; remove perturb, or the target to test the verdict on hedgebench's own server",
    );
    expect(issuesOf({ ...base, perturb: [{ serviceFactor: 0 }] })[0]).toMatch(
      /^perturb\[0\]\.serviceFactor: must be > 0/,
    );
    expect(issuesOf({ ...base, perturb: [{ speed: 2 }] })[0]).toMatch(
      /^perturb\[0\]: unknown field\(s\) "speed"/,
    );
    expect(issuesOf({ ...base, perturb: [{}, {}] })).toEqual([
      'perturb: {} (none) appears twice; list each perturbation once',
    ]);
  });
});
