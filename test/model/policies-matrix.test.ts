// Issue 40's policies in a matrix: the hedge options `delay`, `budget`, `winner`, `loneFailure` and the
// model's failures and pushback are accepted with the library's ranges, each bad value gets one message
// naming the field and the fix, the dilated clock scales their durations (not their counts), a percentile
// delay sweep ("p95") has its own key, slug and cell, and the failure draw is the model's own stream.
import { describe, expect, it } from 'vitest';
import {
  attemptFails,
  DEFAULT_ERROR_MS,
  DEFAULT_MODEL,
  dilateConfig,
  dilateModel,
  expandMatrix,
  labelWithDims,
  MatrixInvalidError,
  meanHoldMs,
  meanServiceMs,
  parseMatrix,
  pointKey,
  pointSlug,
  pushbackMsAt,
  SWEEP_PERCENTILE_DEFAULTS,
  uniform,
} from '../../model/index.ts';
import { STREAM } from '../../model/rng.ts';

const base = {
  name: 'policies',
  configs: ['no hedge'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
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

const withHedge = (hedge: unknown) => ({ ...base, configs: [{ name: 'h', hedge }] });

describe('hedge options in a matrix', () => {
  it('accepts every new option, and keeps them in the configuration', () => {
    const hedge = {
      delayMs: 20,
      delay: {
        percentile: 95,
        windowMs: 10_000,
        minSamples: 100,
        floorMs: 5,
        capMs: 200,
        until: 'none',
        combine: 'max',
      },
      budget: { kind: 'concurrency', percent: 20, min: 3, pushback: true },
      loneFailure: 'hedge-now',
    };
    expect(parseMatrix(withHedge(hedge)).configs[0]).toEqual({ name: 'h', hedge });
    for (const budget of [
      { kind: 'ratio', pushback: true },
      { kind: 'tokens', maxTokens: 10, tokenRatio: 0.1 },
      { kind: 'pushback' },
    ]) {
      expect(parseMatrix(withHedge({ budget })).configs[0].hedge?.budget).toEqual(budget);
    }
    expect(parseMatrix(withHedge({ winner: 'first-completion' })).configs[0].hedge?.winner).toBe(
      'first-completion',
    );
  });

  it('gives one message per bad value, naming the field and the fix', () => {
    const d = { percentile: 95, windowMs: 10_000, minSamples: 100 };
    const cases: [unknown, RegExp][] = [
      [
        { delay: { ...d, percentile: 0 } },
        /^configs\[0\]\.hedge\.delay\.percentile: must be in \(0, 100\), e\.g\. 95/,
      ],
      [
        { delay: { ...d, percentile: 100 } },
        /^configs\[0\]\.hedge\.delay\.percentile: must be in \(0, 100\)/,
      ],
      [
        { delay: { ...d, windowMs: 999 } },
        /^configs\[0\]\.hedge\.delay\.windowMs: must be in 1000\.\.60000 ms/,
      ],
      [
        { delay: { ...d, minSamples: 0 } },
        /^configs\[0\]\.hedge\.delay\.minSamples: must be ≥ 1 .*e\.g\. 100/,
      ],
      [
        { delay: { ...d, minSamples: 2.5 } },
        /^configs\[0\]\.hedge\.delay\.minSamples: must be a whole number/,
      ],
      [
        { delay: { ...d, floorMs: 50, capMs: 20 } },
        /^configs\[0\]\.hedge\.delay\.floorMs: 50 is above capMs 20; lower floorMs or raise capMs/,
      ],
      [
        { delay: { windowMs: 10_000, minSamples: 1 } },
        /^configs\[0\]\.hedge\.delay\.percentile: is required: .*e\.g\. 95/,
      ],
      [{ delay: { ...d, until: 'later' } }, /^configs\[0\]\.hedge\.delay\.until: must be 'fixed' or 'none'/],
      [
        { budget: { kind: 'concurrency', percent: 0 } },
        /^configs\[0\]\.hedge\.budget\.percent: must be in \(0, 100\] .*e\.g\. 20/,
      ],
      [
        { budget: { kind: 'concurrency', percent: 101 } },
        /^configs\[0\]\.hedge\.budget\.percent: must be in \(0, 100\]/,
      ],
      [
        { budget: { kind: 'tokens', maxTokens: 0, tokenRatio: 0.1 } },
        /^configs\[0\]\.hedge\.budget\.maxTokens: must be > 0 and ≤ 1000 .*e\.g\. 10/,
      ],
      [
        { budget: { kind: 'tokens', maxTokens: 10, tokenRatio: 0 } },
        /^configs\[0\]\.hedge\.budget\.tokenRatio: must be > 0 .*e\.g\. 0\.1/,
      ],
      [
        { budget: { kind: 'tokens', tokenRatio: 0.1 } },
        /^configs\[0\]\.hedge\.budget\.maxTokens: is required: .*e\.g\. 10/,
      ],
      [
        { budget: { kind: 'bucket' } },
        /^configs\[0\]\.hedge\.budget\.kind: must be one of "ratio", "concurrency", "tokens", "pushback"/,
      ],
      [{ budget: { kind: 'pushback', min: 3 } }, /^configs\[0\]\.hedge\.budget: unknown field\(s\) "min"/],
      [{ winner: 'fastest' }, /^configs\[0\]\.hedge\.winner: must be 'first-success' or 'first-completion'/],
      [{ loneFailure: 'retry' }, /^configs\[0\]\.hedge\.loneFailure: must be 'wait' or 'hedge-now'/],
    ];
    for (const [hedge, message] of cases) {
      const issues = issuesOf(withHedge(hedge));
      expect(issues, JSON.stringify(hedge)).toHaveLength(1);
      expect(issues[0], JSON.stringify(hedge)).toMatch(message);
    }
  });

  it('leaves the rules across fields to the library, whose message names the field and the fix', () => {
    const [ratioBeside] = issuesOf(withHedge({ budgetPercent: 5, budget: { kind: 'concurrency' } }));
    expect(ratioBeside).toMatch(/^configs\[0\]: .*hedge\.budgetPercent.*ratio budget only.*Drop it/);
    const [loneWithCompletion] = issuesOf(
      withHedge({ winner: 'first-completion', loneFailure: 'hedge-now' }),
    );
    expect(loneWithCompletion).toMatch(/hedge\.loneFailure.*first-success.*Drop loneFailure/);
  });
});

describe('failures and pushback in the model', () => {
  it('accepts them, and refuses each bad value with the field and the fix', () => {
    const model = {
      errorProb: 0.05,
      errorMs: 2,
      errorCorrelation: 0.5,
      pushback: { queueAbove: 8, ms: 100 },
    };
    expect(parseMatrix({ ...base, model }).model).toEqual({ ...DEFAULT_MODEL, ...model });
    const cases: [unknown, RegExp][] = [
      [{ errorProb: 1 }, /^model\.errorProb: must be in \[0, 1\) \(1 would fail every attempt/],
      [{ errorProb: -0.1 }, /^model\.errorProb: must be in \[0, 1\)/],
      [{ errorProb: 0.1, errorMs: -1 }, /^model\.errorMs: must be ≥ 0/],
      [{ errorProb: 0.1, errorCorrelation: 1.5 }, /^model\.errorCorrelation: must be in \[0, 1\]/],
      [{ errorMs: 5 }, /^model\.errorMs: has no effect without model\.errorProb > 0.*set errorProb/],
      [{ pushback: { queueAbove: -1, ms: 10 } }, /^model\.pushback\.queueAbove: must be ≥ 0/],
      [{ pushback: { queueAbove: 4, ms: 0 } }, /^model\.pushback\.ms: must be > 0/],
      [{ pushback: { ms: 10 } }, /^model\.pushback\.queueAbove: is required/],
    ];
    for (const [m, message] of cases) {
      const issues = issuesOf({ ...base, model: m });
      expect(issues, JSON.stringify(m)).toHaveLength(1);
      expect(issues[0], JSON.stringify(m)).toMatch(message);
    }
  });

  it('refuses pushback with a foreign target: hedgebench cannot make it push back', () => {
    const issues = issuesOf({
      ...base,
      target: { url: 'http://127.0.0.1:9/work' },
      model: { pushback: { queueAbove: 4, ms: 10 } },
    });
    expect(issues).toEqual([
      expect.stringMatching(
        /^model\.pushback: hedgebench cannot make a foreign target .*remove model\.pushback/,
      ),
    ]);
    // Failures are part of a foreign service's model (a probe may fit them); the service makes its own.
    expect(() =>
      parseMatrix({ ...base, target: { url: 'http://127.0.0.1:9/work' }, model: { errorProb: 0.01 } }),
    ).not.toThrow();
  });

  it('draws failures from their own stream, shared by a call when correlated', () => {
    const m = { ...DEFAULT_MODEL, errorProb: 0.3 };
    let fails = 0;
    for (let call = 0; call < 20_000; call++) {
      const f = attemptFails(m, 7, call, 1);
      expect(f).toBe(uniform(7, STREAM.error, call, 1) < 0.3);
      if (f) fails++;
    }
    expect(fails / 20_000).toBeCloseTo(0.3, 1);
    // The stream is new: nothing else of the model draws from it, and the balancer's two draws sit below it.
    expect(STREAM.error).toBeGreaterThan(STREAM.balancer + 1);
    expect(STREAM.errorCorrelation).toBeLessThan(16);
    // Fully correlated: every attempt of a call fails with its first, whatever its own draw says.
    const all = { ...m, errorCorrelation: 1 };
    for (let call = 0; call < 2_000; call++) {
      expect(attemptFails(all, 7, call, 2)).toBe(attemptFails(all, 7, call, 1));
      expect(attemptFails(all, 7, call, 3)).toBe(attemptFails(all, 7, call, 1));
    }
    // No errorProb: no failure and no draw, whatever else is set.
    expect(attemptFails(DEFAULT_MODEL, 7, 0, 1)).toBe(false);
  });

  it('keeps the load the utilisation without hedging: a failing attempt counts its errorMs as its hold', () => {
    expect(meanHoldMs(DEFAULT_MODEL)).toBe(meanServiceMs(DEFAULT_MODEL));
    const m = { ...DEFAULT_MODEL, errorProb: 0.1, errorMs: 1 };
    expect(meanHoldMs(m)).toBeCloseTo(0.9 * meanServiceMs(m) + 0.1 * 1, 12);
    expect(meanHoldMs({ ...DEFAULT_MODEL, errorProb: 0.1 })).toBeCloseTo(
      0.9 * meanServiceMs(m) + 0.1 * DEFAULT_ERROR_MS,
      12,
    );
  });

  it('pushes back only while the queue is longer than the bound', () => {
    const rule = { queueAbove: 4, ms: 50 };
    expect([3, 4, 5, 9].map((q) => pushbackMsAt(rule, q))).toEqual([0, 0, 50, 50]);
    expect(pushbackMsAt(undefined, 100)).toBe(0);
  });
});

describe('the dilated clock and the new fields', () => {
  it('scales errorMs and the pushback ms by k; probabilities and the queue bound stay', () => {
    const m = {
      ...DEFAULT_MODEL,
      errorProb: 0.1,
      errorMs: 2,
      errorCorrelation: 0.5,
      pushback: { queueAbove: 8, ms: 100 },
    };
    const d = dilateModel(m, 5);
    expect(d).toMatchObject({
      errorProb: 0.1,
      errorMs: 10,
      errorCorrelation: 0.5,
      pushback: { queueAbove: 8, ms: 500 },
    });
    // The default errorMs dilates too (written out, since the default itself is in model ms).
    expect(dilateModel({ ...DEFAULT_MODEL, errorProb: 0.1 }, 5).errorMs).toBe(DEFAULT_ERROR_MS * 5);
    expect(dilateModel(DEFAULT_MODEL, 5)).not.toHaveProperty('errorMs');
    expect(dilateModel(m, 1)).toBe(m);
  });

  it("scales the percentile delay's window, floor and cap; minSamples, percent, min and tokens stay", () => {
    const c = dilateConfig(
      {
        name: 'c',
        hedge: {
          delayMs: 20,
          delay: { percentile: 95, windowMs: 10_000, minSamples: 100, floorMs: 5, capMs: 200 },
          budget: { kind: 'concurrency', percent: 20, min: 3 },
        },
      },
      4,
    );
    expect(c.hedge).toEqual({
      delayMs: 80,
      delay: { percentile: 95, windowMs: 40_000, minSamples: 100, floorMs: 20, capMs: 800 },
      budget: { kind: 'concurrency', percent: 20, min: 3 },
    });
    // No ratio field beside another shape: the library would refuse it.
    const t = dilateConfig(
      { name: 't', hedge: { budget: { kind: 'tokens', maxTokens: 10, tokenRatio: 0.1 } } },
      3,
    );
    expect(t.hedge).toEqual({ delayMs: 3000, budget: { kind: 'tokens', maxTokens: 10, tokenRatio: 0.1 } });
    // The ratio shape, named or not, dilates its window and its rate as before.
    const r = dilateConfig(
      { name: 'r', hedge: { delayMs: 20, budget: { kind: 'ratio', pushback: true } } },
      2,
    );
    expect(r.hedge).toEqual({
      delayMs: 40,
      budget: { kind: 'ratio', pushback: true },
      budgetWindowMs: 20_000,
      budgetMinHedgesPerSecond: 0.5,
    });
  });
});

describe('a percentile delay sweep ("p95")', () => {
  const m = parseMatrix({
    ...base,
    configs: ['no hedge', 'hedge, no budget'],
    delaysMs: [20, 'p95', 'p99.9'],
  });
  const points = expandMatrix(m);

  it('runs the percentile rule with the documented defaults, keeping the numeric variants as before', () => {
    expect(points.map((p) => [pointKey(p), pointSlug(p)])).toEqual([
      ['no hedge|0.50|ignore|1', 'no-hedge_0.50_ignore_s1'],
      ['hedge, no budget|0.50|ignore|1|d=20', 'hedge-no-budget_0.50_ignore_s1_d20'],
      ['hedge, no budget|0.50|ignore|1|d=p95', 'hedge-no-budget_0.50_ignore_s1_dp95'],
      ['hedge, no budget|0.50|ignore|1|d=p99.9', 'hedge-no-budget_0.50_ignore_s1_dp99p9'],
    ]);
    expect(points[1].config.hedge).toEqual({ delayMs: 20, budgetPercent: 0 });
    expect(points[2].config.hedge).toEqual({
      delayMs: 20,
      budgetPercent: 0,
      delay: { percentile: 95, windowMs: 10_000, minSamples: 100, until: 'fixed' },
    });
    expect(SWEEP_PERCENTILE_DEFAULTS).toEqual({ windowMs: 10_000, minSamples: 100, until: 'fixed' });
    expect(points[3].config.hedge?.delay?.percentile).toBe(99.9);
    expect(labelWithDims('hedge, no budget', points[2].dims)).toBe('hedge, no budget · delay p95');
    expect(labelWithDims('hedge, no budget', points[1].dims)).toBe('hedge, no budget · delay 20 ms');
  });

  it('refuses a text that is no percentile, naming the fix', () => {
    for (const bad of ['p100', 'p0', '95', 'fast', 'P95']) {
      const issues = issuesOf({ ...base, delaysMs: [bad] });
      expect(issues, bad).toEqual([
        expect.stringMatching(/^delaysMs\[0\]: .* is not a percentile; write "pQ" with 0 < Q < 100/),
      ]);
    }
    expect(issuesOf({ ...base, delaysMs: [true] })).toEqual([
      expect.stringMatching(
        /^delaysMs\[0\]: must be a hedge delay in ms \(> 0, e\.g\. 20\) or a percentile such as "p95"/,
      ),
    ]);
    expect(issuesOf({ ...base, delaysMs: ['p95', 'p95'] })).toEqual([
      'delaysMs: p95 appears twice; list each delay once',
    ]);
  });
});
