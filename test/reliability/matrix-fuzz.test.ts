// Matrix files, random and malformed (fast-check): every rejection is ONE MatrixInvalidError whose lines
// each name a field; whatever is accepted can really be run — planned, simulated at a finite rate, and
// taken by the target server's PUT /config — so no bad matrix gets past the checks made before a run
// starts. A few generated files also go through the real `hedgebench run --matrix`.
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalRatePerMs, MatrixInvalidError, parseMatrix } from '../../model/index.ts';
import { loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import { defaultRunDir } from '../../orchestrator/paths.ts';
import { applyPatch, defaultConfig, parseConfigPatch } from '../../target-server/config.ts';
import { requireBuild, rmTemp, runCli, tempDir } from '../orchestrator/fixture.ts';

let dir: string;
beforeAll(() => {
  dir = tempDir('hb-rel-matrix-');
});
afterAll(() => rmTemp(dir));

const FIELDS = [
  'name',
  'description',
  'configs',
  'loads',
  'cancellation',
  'seeds',
  'calls',
  'warmupFraction',
  'model',
  'calibration',
];
/** An issue line starts with the field it is about (or says it is about the whole file). */
const ISSUE = new RegExp(`^(\\(top level\\)|\\(file\\)|(${FIELDS.join('|')})\\b)`);
/** What the target server accepts as a run id or a point slug (target-server/config.ts). */
const KEY_PART = /^[A-Za-z0-9._%+-]{1,200}$/;

const VALID = {
  name: 'fuzz',
  configs: ['no hedge'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
  calibration: false,
};

// Numbers a user (or a typo) might write: edge values, huge, tiny, negative, fractional, non-finite.
const num = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 0.5, 2, 10, 1e-9, 1e-300, 5e-324, 1e9, 1e308, 2 ** 53, 2 ** 53 + 2, 60_001),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.double(),
  fc.integer(),
);
const anyValue = fc.oneof(num, fc.jsonValue(), fc.string({ maxLength: 300 }));
const name = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 100, maxLength: 400 }), anyValue);
const hedge = fc.record(
  { delayMs: num, maxAttempts: num, budgetPercent: num, budgetMinHedgesPerSecond: num, budgetWindowMs: num },
  { requiredKeys: [] },
);
const limit = fc.record(
  {
    initialLimit: num,
    minLimit: num,
    maxLimit: num,
    smoothing: num,
    rttTolerance: num,
    longWindow: num,
    queueSize: num,
    windowed: fc.oneof(fc.boolean(), anyValue),
  },
  { requiredKeys: [] },
);
const config = fc.oneof(
  fc.constantFrom('no hedge', 'hedge, default budget', 'hedged', '', 'NO HEDGE'),
  fc.record(
    { name, hedge: fc.oneof(hedge, anyValue), adaptiveLimit: fc.oneof(limit, anyValue) },
    { requiredKeys: [] },
  ),
  anyValue,
);
const model = fc.record(
  {
    workers: num,
    medianMs: num,
    sigma: num,
    stragglerProb: num,
    stragglerMinMs: num,
    stragglerMaxMs: num,
    service: fc.oneof(
      fc.record(
        { kind: fc.constantFrom('exponential', 'constant', 'x'), meanMs: num, ms: num },
        { requiredKeys: [] },
      ),
      anyValue,
    ),
  },
  { requiredKeys: [] },
);
/** What each field of a matrix may be replaced with: near-misses, extremes and garbage. */
const FIELD_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  name,
  description: anyValue,
  configs: fc.oneof(fc.array(config, { maxLength: 4 }), anyValue),
  loads: fc.oneof(fc.array(num, { maxLength: 4 }), anyValue),
  cancellation: fc.oneof(
    fc.array(fc.constantFrom('ignore', 'propagate', 'IGNORE', ''), { maxLength: 3 }),
    anyValue,
  ),
  seeds: fc.oneof(fc.array(num, { maxLength: 3 }), anyValue),
  calls: num,
  warmupFraction: num,
  model: fc.oneof(model, anyValue),
  calibration: fc.oneof(
    fc.constant(false),
    fc.record({ load: num, calls: num }, { requiredKeys: [] }),
    anyValue,
  ),
  extra: anyValue,
};

/** A valid matrix with one to three fields replaced (so both sides of the line are reached). */
const nearValid: fc.Arbitrary<Record<string, unknown>> = fc
  .uniqueArray(fc.constantFrom(...Object.keys(FIELD_VALUES)), { minLength: 1, maxLength: 3 })
  .chain((keys) =>
    fc
      .tuple(...keys.map((k) => FIELD_VALUES[k]!))
      .map((values) => ({ ...VALID, ...Object.fromEntries(keys.map((k, i) => [k, values[i]])) })),
  );

/** parseMatrix's contract on one input: a usable matrix, or one MatrixInvalidError naming fields. */
function check(input: unknown): 'accepted' | 'rejected' {
  let plan: ReturnType<typeof planPoints>;
  let m: ReturnType<typeof parseMatrix>;
  try {
    m = parseMatrix(input, 'matrix.json');
    plan = planPoints(m);
  } catch (err) {
    expect(err).toBeInstanceOf(MatrixInvalidError);
    const e = err as MatrixInvalidError;
    expect(e.code).toBe('HB_MATRIX_INVALID');
    expect(e.issues.length).toBeGreaterThan(0);
    for (const issue of e.issues) expect(issue).toMatch(ISSUE);
    return 'rejected';
  }
  // Accepted: every point can be scheduled, and the target server takes its configuration.
  expect(basename(defaultRunDir(m.name))).toMatch(KEY_PART);
  for (const pp of plan) {
    const rate = arrivalRatePerMs(pp.point.load, pp.point.model);
    expect(Number.isFinite(rate) && rate > 0, `rate ${rate}`).toBe(true);
    expect(Number.isFinite(pp.expectedMs) && pp.expectedMs > 0).toBe(true);
    expect(pp.slug).toMatch(KEY_PART);
    const patch = parseConfigPatch({
      workers: pp.point.model.workers,
      model: { ...pp.point.model, service: pp.point.model.service ?? null },
      seed: pp.point.seed,
      cancellation: pp.point.cancellation,
      run: 'run',
      slug: pp.slug,
    });
    applyPatch(defaultConfig(), patch);
  }
  return 'accepted';
}

describe('matrix files, random and malformed (property)', () => {
  it('random JSON: accepted and usable, or one MatrixInvalidError naming fields', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        check(v);
      }),
      { numRuns: 500 },
    );
  });

  it('near-valid matrices: accepted and usable, or one MatrixInvalidError naming fields', () => {
    const seen = { accepted: 0, rejected: 0 };
    fc.assert(
      fc.property(nearValid, (v) => {
        seen[check(v)]++;
      }),
      {
        numRuns: 2_000,
        // Found by hand before the generator was tuned: stragglers only, of 0 ms (an infinite rate).
        examples: [[{ ...VALID, model: { stragglerProb: 1, stragglerMinMs: 0, stragglerMaxMs: 0 } }]],
      },
    );
    // The generator reaches both sides of the line.
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.rejected).toBeGreaterThan(0);
  });

  it('any file content: one MatrixInvalidError from loadMatrixFile, never another error', async () => {
    const path = join(dir, 'random.json');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        async (text) => {
          writeFileSync(path, text);
          await loadMatrixFile(path).then(
            (m) => expect(m.name).toBeTypeOf('string'),
            (err) => expect(err).toMatchObject({ code: 'HB_MATRIX_INVALID' }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('hedgebench run --matrix with bad files (real CLI)', () => {
  const cases: [string, unknown, string][] = [
    [
      'a config the library refuses',
      { ...VALID, configs: [{ name: 'x', adaptiveLimit: { minLimit: 100, maxLimit: 10 } }] },
      'configs[0]',
    ],
    ['a huge service time', { ...VALID, model: { medianMs: 1e9 } }, 'model.medianMs'],
    [
      'a zero mean service time',
      { ...VALID, model: { stragglerProb: 1, stragglerMinMs: 0, stragglerMaxMs: 0 } },
      'model: the mean service time is 0 ms',
    ],
    ['a NaN-like string load', { ...VALID, loads: ['NaN'] }, 'loads[0]'],
    [
      'a config name too long for a file name',
      { ...VALID, configs: [{ name: 'n'.repeat(300) }] },
      'configs[0].name',
    ],
    ['an unknown field', { ...VALID, callz: 5 }, '(top level)'],
    ['a bare array', [1, 2, 3], '(top level)'],
  ];
  // Plus a few drawn by fast-check from the near-valid generator (fixed seed: the same files every time).
  const drawn = fc
    .sample(nearValid, { numRuns: 200, seed: 42 })
    .filter((v) => {
      try {
        parseMatrix(v);
        return false;
      } catch {
        return true;
      }
    })
    .slice(0, 3);

  it('answers each with one line `hedgebench: HB_MATRIX_INVALID: …` naming the field, and starts nothing', async () => {
    requireBuild();
    const all: [string, unknown, string | null][] = [
      ...cases,
      ...drawn.map((v, i): [string, unknown, null] => [`drawn ${i}`, v, null]),
    ];
    const results = await Promise.all(
      all.map(async ([what, json, field], i) => {
        const file = join(dir, `bad-${i}.json`);
        writeFileSync(file, JSON.stringify(json));
        const out = join(dir, `never-${i}`);
        const r = await runCli(['run', '--matrix', file, '--out', out], { cwd: dir });
        return { what, field, r, out };
      }),
    );
    for (const { what, field, r, out } of results) {
      const stderr = String(r.stderr);
      expect(r.exitCode, what).toBe(1);
      expect(stderr, what).toMatch(/^hedgebench: HB_MATRIX_INVALID: /);
      expect(stderr, what).not.toMatch(/\n\s+at /);
      expect(
        stderr
          .trim()
          .split('\n')
          .filter((l) => !l.startsWith('  - ')),
        what,
      ).toHaveLength(1);
      if (field !== null) expect(stderr, what).toContain(`- ${field}`);
      expect(existsSync(out), what).toBe(false);
    }
  });
});
