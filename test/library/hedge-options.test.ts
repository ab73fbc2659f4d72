// The new hedge options' validation: each bad input is one ConfigError (HB_CONFIG_INVALID) naming the field,
// the value and the fix; and the resolve functions fill in the defaults the model layer dilates.
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  type HedgeStepOptions,
  ManualClock,
  pipeline,
  resolveHedgeBudget,
  resolveHedgeDelay,
  resolveHedgeOptions,
} from '../../library/index.ts';

function configError(f: () => unknown): ConfigError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const clock = new ManualClock();
const make = (o: unknown) => () => pipeline(clock).hedge(o as HedgeStepOptions);
const rule = { percentile: 95, windowMs: 10_000, minSamples: 100 };
const delay = (extra: object) => make({ delay: { ...rule, ...extra } });
const budget = (b: unknown) => make({ budget: b });

// [name, make, field, value, text the message must contain (the range or the fix)]
const cases: [string, () => unknown, string, unknown, string][] = [
  ['percentile 0', delay({ percentile: 0 }), 'hedge.delay.percentile', 0, '(0, 100)'],
  ['percentile 100', delay({ percentile: 100 }), 'hedge.delay.percentile', 100, '(0, 100)'],
  ['percentile -1', delay({ percentile: -1 }), 'hedge.delay.percentile', -1, '(0, 100)'],
  ['percentile "p99"', delay({ percentile: 'p99' }), 'hedge.delay.percentile', 'p99', 'a number'],
  ['percentile missing', delay({ percentile: undefined }), 'hedge.delay.percentile', undefined, 'required'],
  ['windowMs 999', delay({ windowMs: 999 }), 'hedge.delay.windowMs', 999, '1000..60000000'],
  [
    'windowMs missing',
    delay({ windowMs: undefined }),
    'hedge.delay.windowMs',
    undefined,
    'It has no default',
  ],
  ['minSamples 0', delay({ minSamples: 0 }), 'hedge.delay.minSamples', 0, 'an integer'],
  ['minSamples 2.5', delay({ minSamples: 2.5 }), 'hedge.delay.minSamples', 2.5, 'an integer'],
  ['minSamples missing', delay({ minSamples: undefined }), 'hedge.delay.minSamples', undefined, 'required'],
  ['floor > cap', delay({ floorMs: 50, capMs: 20 }), 'hedge.delay.floorMs', 50, '≤ capMs (20). Raise capMs'],
  ['negative floor', delay({ floorMs: -1 }), 'hedge.delay.floorMs', -1, '0..∞'],
  ['until "never"', delay({ until: 'never' }), 'hedge.delay.until', 'never', "'fixed', 'none'"],
  ['combine "avg"', delay({ combine: 'avg' }), 'hedge.delay.combine', 'avg', "'min', 'max'"],
  ['unknown key in delay', delay({ quantile: 0.9 }), 'hedge.delay.quantile', 0.9, 'unknown option'],
  ['delay as a number', make({ delay: 20 }), 'hedge.delay', 20, 'delayMs: 20'],
  ['delay as null', make({ delay: null }), 'hedge.delay', null, 'must be an object'],
  ['budget kind missing', budget({}), 'hedge.budget.kind', undefined, 'Name the shape'],
  ['budget kind "leaky"', budget({ kind: 'leaky' }), 'hedge.budget.kind', 'leaky', "'concurrency'"],
  ['budget not an object', budget('ratio'), 'hedge.budget', 'ratio', '{ kind:'],
  ['percent 0', budget({ kind: 'concurrency', percent: 0 }), 'hedge.budget.percent', 0, '(0, 100]'],
  ['percent 101', budget({ kind: 'concurrency', percent: 101 }), 'hedge.budget.percent', 101, '(0, 100]'],
  ['min -1', budget({ kind: 'concurrency', min: -1 }), 'hedge.budget.min', -1, 'an integer'],
  ['min 1.5', budget({ kind: 'concurrency', min: 1.5 }), 'hedge.budget.min', 1.5, 'an integer'],
  [
    'maxTokens 0',
    budget({ kind: 'tokens', maxTokens: 0, tokenRatio: 1 }),
    'hedge.budget.maxTokens',
    0,
    '(0, 1000]',
  ],
  [
    'maxTokens 1001',
    budget({ kind: 'tokens', maxTokens: 1001, tokenRatio: 1 }),
    'hedge.budget.maxTokens',
    1001,
    '(0, 1000]',
  ],
  [
    'tokenRatio 0',
    budget({ kind: 'tokens', maxTokens: 10, tokenRatio: 0 }),
    'hedge.budget.tokenRatio',
    0,
    '> 0',
  ],
  [
    'tokenRatio -1',
    budget({ kind: 'tokens', maxTokens: 10, tokenRatio: -1 }),
    'hedge.budget.tokenRatio',
    -1,
    '> 0',
  ],
  ['tokens missing', budget({ kind: 'tokens' }), 'hedge.budget.maxTokens', undefined, 'It has no default'],
  [
    'key of another kind',
    budget({ kind: 'pushback', percent: 5 }),
    'hedge.budget.percent',
    5,
    'unknown option',
  ],
  [
    'pushback "yes"',
    budget({ kind: 'ratio', pushback: 'yes' }),
    'hedge.budget.pushback',
    'yes',
    'true or false',
  ],
  [
    'ratio field beside another shape',
    make({ budget: { kind: 'concurrency' }, budgetPercent: 5 }),
    'hedge.budgetPercent',
    5,
    "use budget { kind: 'ratio' }",
  ],
  ['winner "fastest"', make({ winner: 'fastest' }), 'hedge.winner', 'fastest', "'first-completion'"],
  ['loneFailure "retry"', make({ loneFailure: 'retry' }), 'hedge.loneFailure', 'retry', "'hedge-now'"],
  [
    'hedge-now with first-completion',
    make({ winner: 'first-completion', loneFailure: 'hedge-now' }),
    'hedge.loneFailure',
    'hedge-now',
    "'first-success' only",
  ],
  [
    'hedgeOn with first-completion',
    make({ winner: 'first-completion', hedgeOn: () => true }),
    'hedge.hedgeOn',
    'function',
    "Drop hedgeOn, or use winner 'first-success'",
  ],
];

describe('configuration errors of the new hedge options', () => {
  for (const [name, f, field, value, text] of cases) {
    it(`${name}: names ${field}, the value and the fix`, () => {
      const e = configError(f);
      expect(e.code).toBe('HB_CONFIG_INVALID');
      expect(e.field).toBe(field);
      expect(e.value).toEqual(value);
      expect(e.message).toContain(field);
      expect(e.message).toContain(text);
    });
  }

  it('accepts the edges of the valid ranges', () => {
    expect(
      make({ delay: { percentile: 0.001, windowMs: 1000, minSamples: 1, floorMs: 0, capMs: 0 } }),
    ).not.toThrow();
    expect(make({ delay: { ...rule, percentile: 99.999 } })).not.toThrow();
    expect(budget({ kind: 'concurrency', percent: 100, min: 0 })).not.toThrow();
    expect(budget({ kind: 'tokens', maxTokens: 1000, tokenRatio: 0.001 })).not.toThrow();
    expect(budget({ kind: 'pushback' })).not.toThrow();
  });
});

describe('resolving the new options', () => {
  it('fills in the delay rule’s defaults (capMs stays undefined: no cap, and JSON-safe)', () => {
    expect(resolveHedgeDelay(rule)).toEqual({
      ...rule,
      floorMs: 0,
      capMs: undefined,
      until: 'fixed',
      combine: undefined,
    });
    expect(
      resolveHedgeOptions({ delayMs: 20, delay: { ...rule, capMs: 200, combine: 'max' } }).delay,
    ).toEqual({
      ...rule,
      floorMs: 0,
      capMs: 200,
      until: 'fixed',
      combine: 'max',
    });
  });

  it('fills in each budget shape', () => {
    expect(resolveHedgeBudget({ kind: 'ratio' })).toEqual({ kind: 'ratio', pushback: false });
    expect(resolveHedgeBudget({ kind: 'concurrency' })).toEqual({
      kind: 'concurrency',
      percent: 20,
      min: 3,
      pushback: false,
    });
    expect(resolveHedgeBudget({ kind: 'tokens', maxTokens: 10, tokenRatio: 0.1, pushback: true })).toEqual({
      kind: 'tokens',
      maxTokens: 10,
      tokenRatio: 0.1,
      pushback: true,
    });
    expect(resolveHedgeBudget({ kind: 'pushback' })).toEqual({ kind: 'pushback', pushback: true });
  });

  it('prefixes field names as asked (the model names the configuration)', () => {
    const e = configError(() =>
      resolveHedgeOptions({ delay: { ...rule, percentile: 0 } }, 'config "x".hedge'),
    );
    expect(e.field).toBe('config "x".hedge.delay.percentile');
  });
});
