// Invalid configuration throws ConfigError (HB_CONFIG_INVALID) naming the field, the value and the valid range.
import { describe, expect, it } from 'vitest';
import { ConfigError, ManualClock, pipeline } from '../../library/index.ts';
import { buildPipeline, REFERENCE_CONFIGS } from '../../model/index.ts';

function configError(f: () => unknown): ConfigError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration errors', () => {
  const clock = new ManualClock();
  const cases: [string, () => unknown, string, unknown, string][] = [
    ['maxAttempts 11', () => pipeline(clock).hedge({ maxAttempts: 11 }), 'hedge.maxAttempts', 11, '2..10'],
    [
      'maxAttempts 2.5',
      () => pipeline(clock).hedge({ maxAttempts: 2.5 }),
      'hedge.maxAttempts',
      2.5,
      'integer',
    ],
    ['negative delay', () => pipeline(clock).hedge({ delayMs: -1 }), 'hedge.delayMs', -1, '0..∞'],
    [
      'budgetPercent 150',
      () => pipeline(clock).hedge({ budgetPercent: 150 }),
      'hedge.budgetPercent',
      150,
      '0..100',
    ],
    [
      'window 500 ms',
      () => pipeline(clock).hedge({ budgetWindowMs: 500 }),
      'hedge.budgetWindowMs',
      500,
      '1000..60000000',
    ],
    [
      'NaN min',
      () => pipeline(clock).hedge({ budgetMinHedgesPerSecond: Number.NaN }),
      'hedge.budgetMinHedgesPerSecond',
      Number.NaN,
      'a number',
    ],
    ['deadline 0', () => pipeline(clock).hedge({ deadlineMs: 0 }), 'hedge.deadlineMs', 0, '> 0'],
    ['typo', () => pipeline(clock).hedge({ delay: 20 } as never), 'hedge.delay', 20, 'unknown option'],
    [
      'minLimit > maxLimit',
      () => pipeline(clock).adaptiveLimit({ minLimit: 50, maxLimit: 10 }),
      'adaptiveLimit.minLimit',
      50,
      'maxLimit (10)',
    ],
    [
      'smoothing 2',
      () => pipeline(clock).adaptiveLimit({ smoothing: 2 }),
      'adaptiveLimit.smoothing',
      2,
      '0..1',
    ],
    [
      'rttTolerance 0.5',
      () => pipeline(clock).adaptiveLimit({ rttTolerance: 0.5 }),
      'adaptiveLimit.rttTolerance',
      0.5,
      '1..∞',
    ],
    [
      'initial below min',
      () => pipeline(clock).adaptiveLimit({ initialLimit: 5 }),
      'adaptiveLimit.initialLimit',
      5,
      '20..200',
    ],
    [
      'string limit',
      () => pipeline(clock).adaptiveLimit({ maxLimit: '9' as never }),
      'adaptiveLimit.maxLimit',
      '9',
      'a number',
    ],
    [
      'windowed "yes"',
      () => pipeline(clock).adaptiveLimit({ windowed: 'yes' as never }),
      'adaptiveLimit.windowed',
      'yes',
      'true or false',
    ],
  ];
  for (const [name, make, field, value, range] of cases) {
    it(`${name}: names ${field}, the value and the range`, () => {
      const e = configError(make);
      expect(e.code).toBe('HB_CONFIG_INVALID');
      expect(e.field).toBe(field);
      expect(e.value).toEqual(value);
      expect(e.message).toContain(field);
      expect(e.message).toContain(range);
    });
  }

  it('accepts the limits of the valid ranges', () => {
    expect(() =>
      pipeline(clock).hedge({ maxAttempts: 10, delayMs: 0, budgetPercent: 100, budgetWindowMs: 60_000 }),
    ).not.toThrow();
    expect(() =>
      pipeline(clock).hedge({ maxAttempts: 2, budgetPercent: 0, budgetWindowMs: 1000 }),
    ).not.toThrow();
    expect(() => pipeline(clock).adaptiveLimit({ minLimit: 1, maxLimit: 1, initialLimit: 1 })).not.toThrow();
  });
});

describe('buildPipeline', () => {
  const clock = new ManualClock();

  it('maps each reference configuration to its policies (limit inside the hedge)', () => {
    const shapes = REFERENCE_CONFIGS.map((c) => {
      const p = buildPipeline(c, clock);
      const h = p.hedgePolicy?.settings;
      return [
        c.name,
        p.steps.length,
        h?.delayMs,
        h?.maxAttempts,
        h?.budgetPercent,
        p.limitPolicy !== undefined && p.steps[1] === p.limitPolicy,
      ];
    });
    expect(shapes).toEqual([
      ['no hedge', 0, undefined, undefined, undefined, false],
      ['hedge, no budget', 1, 20, 2, 0, false],
      ['hedge, default budget', 1, 20, 2, 10, false],
      ['hedge, budget 5 %', 1, 20, 2, 5, false],
      ['hedge, default budget, adaptive limit', 2, 20, 2, 10, true],
      ['3 attempts, no budget', 1, 20, 3, 0, false],
    ]);
    const adaptive = buildPipeline(REFERENCE_CONFIGS[4], clock);
    expect(adaptive.limitPolicy!.settings).toMatchObject({
      initialLimit: 20,
      minLimit: 20,
      maxLimit: 200,
      windowed: true,
    });
    expect(adaptive.hedgePolicy!.budget).toBeDefined();
    expect(buildPipeline(REFERENCE_CONFIGS[1], clock).hedgePolicy!.budget).toBeUndefined();
  });

  it('names the configuration in its errors', () => {
    const e = configError(() => buildPipeline({ name: 'mine', hedge: { maxAttempts: 11 } }, clock));
    expect(e.field).toBe('config "mine".hedge.maxAttempts');
    expect(
      configError(() => buildPipeline({ name: 'x', adaptiveLimit: { smoothing: -1 } }, clock)).field,
    ).toBe('config "x".adaptiveLimit.smoothing');
    expect(configError(() => buildPipeline({ name: 'x', hegde: {} } as never, clock)).field).toBe(
      'config "x".hegde',
    );
    expect(configError(() => buildPipeline({ name: '' }, clock)).field).toBe('config.name');
  });
});
