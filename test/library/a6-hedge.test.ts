// A6HedgePolicy against gRFC A6's text, on a ManualClock: attempts every hedgingDelay until one commits, a
// non-fatal status sends the next at once, a fatal one ends the call, maxAttempts capped at 5, and the
// retryThrottling bucket (start at maxTokens, −1 per non-fatal failure, +tokenRatio per success, hedges
// only while tokens > maxTokens/2; the first attempt always goes).
import { describe, expect, it } from 'vitest';
import {
  type A6HedgeOptions,
  A6HedgePolicy,
  A6Throttle,
  ConfigError,
  ManualClock,
  type Outcome,
  pipeline,
} from '../../library/index.ts';
import { brief, type Step, scripted } from './scripted.ts';

const UNAVAILABLE = 14;
const INTERNAL = 13;
const status = (code: number) => Object.assign(new Error(`status ${code}`), { code });

function run(opts: Omit<A6HedgeOptions, 'clock'>, plan: (call: number, attempt: number) => Step, calls = 1) {
  const clock = new ManualClock();
  const policy = new A6HedgePolicy({ clock, ...opts });
  const s = scripted(clock, plan);
  const p = pipeline(clock).use(policy);
  const op = p.compose(s.op);
  const results: { out: Outcome<string>; at: number; attempts: number; winner: number; skipped: number }[] =
    [];
  for (let i = 0; i < calls; i++) {
    const cs = p.newCall(i);
    op(cs, 1, (out) =>
      results.push({ out, at: clock.now(), attempts: cs.attempts, winner: cs.winner, skipped: cs.skipped }),
    );
    clock.runAll();
  }
  return { clock, policy, log: s.log, results, live: s.live };
}

describe('A6HedgePolicy: hedging', () => {
  it('sends an attempt every hedgingDelay until one commits, then cancels the others', () => {
    const r = run({ maxAttempts: 3, hedgingDelayMs: 20 }, (_c, a) => ({
      ms: a === 1 ? 100 : a === 2 ? 30 : 100,
    }));
    expect(brief(r.log)).toEqual([
      'start 1@0',
      'start 2@20',
      'start 3@40',
      'end 2@50',
      'cancel 1@50',
      'cancel 3@50',
    ]);
    expect(r.results[0]).toMatchObject({ out: { ok: true, value: 'c0a2' }, attempts: 3, winner: 2, at: 50 });
    expect(r.live()).toBe(0);
  });

  it('sends every attempt at once when hedgingDelay is 0', () => {
    const r = run({ maxAttempts: 3, hedgingDelayMs: 0 }, (_c, a) => ({ ms: 10 * (4 - a) }));
    expect(brief(r.log).slice(0, 3)).toEqual(['start 1@0', 'start 2@0', 'start 3@0']);
    expect(r.results[0]).toMatchObject({ winner: 3, at: 10 });
  });

  it('a non-fatal status sends the next attempt at once, shortcutting the delay', () => {
    const r = run({ maxAttempts: 3, hedgingDelayMs: 50, nonFatalStatusCodes: [UNAVAILABLE] }, (_c, a) =>
      a === 1 ? { ms: 5, error: status(UNAVAILABLE) } : { ms: 10 },
    );
    expect(brief(r.log)).toEqual(['start 1@0', 'end 1@5', 'start 2@5', 'end 2@15']);
    expect(r.results[0]).toMatchObject({ winner: 2, at: 15 });
  });

  it('a fatal status ends the call with it and cancels the other attempts', () => {
    const r = run({ maxAttempts: 3, hedgingDelayMs: 10, nonFatalStatusCodes: [UNAVAILABLE] }, (_c, a) =>
      a === 2 ? { ms: 5, error: status(INTERNAL) } : { ms: 100 },
    );
    expect(brief(r.log)).toEqual(['start 1@0', 'start 2@10', 'end 2@15', 'cancel 1@15']);
    expect(r.results[0]!.out.ok).toBe(false);
    expect((r.results[0]!.out as { error: { code: number } }).error.code).toBe(INTERNAL);
    expect(r.policy.snapshot()).toMatchObject({ failed: 1, won: 0, hedges: 1 });
  });

  it('fails with the last non-fatal status once every attempt failed', () => {
    const r = run({ maxAttempts: 2, hedgingDelayMs: 10, nonFatalStatusCodes: [UNAVAILABLE] }, () => ({
      ms: 3,
      error: status(UNAVAILABLE),
    }));
    expect(brief(r.log)).toEqual(['start 1@0', 'end 1@3', 'start 2@3', 'end 2@6']);
    expect(r.results[0]).toMatchObject({ out: { ok: false }, attempts: 2, at: 6 });
  });

  it('treats maxAttempts above 5 as 5', () => {
    const r = run({ maxAttempts: 9, hedgingDelayMs: 1 }, () => ({ ms: 100 }));
    expect(r.policy.maxAttempts).toBe(5);
    expect(r.log.filter((e) => e.what === 'start')).toHaveLength(5);
    expect(r.results[0]).toMatchObject({ attempts: 5, winner: 1 });
  });
});

describe('A6HedgePolicy: retryThrottling', () => {
  it('the bucket: starts full, −1 per failure, +tokenRatio per success, within [0, maxTokens]', () => {
    const t = new A6Throttle({ maxTokens: 4, tokenRatio: 0.5 });
    expect(t.tokens).toBe(4);
    t.succeeded();
    expect(t.tokens).toBe(4);
    t.failed();
    t.failed();
    expect(t.tokens).toBe(2);
    expect(t.allows()).toBe(false); // 2 is not > 4/2
    t.succeeded();
    expect(t.tokens).toBe(2.5);
    expect(t.allows()).toBe(true);
    for (let i = 0; i < 10; i++) t.failed();
    expect(t.tokens).toBe(0);
  });

  it('stops hedges once tokens ≤ maxTokens/2, still sends first attempts, and recovers with successes', () => {
    const opts = {
      maxAttempts: 2,
      hedgingDelayMs: 10,
      nonFatalStatusCodes: [UNAVAILABLE],
      retryThrottling: { maxTokens: 10, tokenRatio: 0.5 },
    };
    // Calls 0–11 and 22: attempt 1 fails non-fatally (−1), a hedge succeeds (+0.5). Calls 12–21 succeed at once.
    const failsFirst = (c: number) => c < 12 || c === 22;
    const r = run(
      opts,
      (c, a) => (a === 1 && failsFirst(c) ? { ms: 1, error: status(UNAVAILABLE) } : { ms: 1 }),
      23,
    );
    // Before call k (k ≤ 8) tokens are 10 − 0.5k; its failure leaves 9 − 0.5k, which allows a hedge while > 5.
    expect(r.results.slice(0, 8).map((x) => x.attempts)).toEqual(new Array(8).fill(2));
    // Call 8: its failure leaves 5 = maxTokens/2 → no hedge, the call fails; calls 9–11 likewise (4, 3, 2).
    for (const x of r.results.slice(8, 12))
      expect(x).toMatchObject({ attempts: 1, skipped: 1, out: { ok: false } });
    // Ten successes: 2 + 10 × 0.5 = 7; call 22's failure leaves 6 > 5, so it hedges again.
    expect(r.results[22]).toMatchObject({ attempts: 2, winner: 2, out: { ok: true } });
    expect(r.policy.snapshot()).toMatchObject({ throttled: 4, tokens: 6.5 });
  });

  it('throttleHedges false (a client that checks the bucket on retries only): hedges go out whatever the tokens', () => {
    const opts = {
      maxAttempts: 2,
      hedgingDelayMs: 10,
      nonFatalStatusCodes: [UNAVAILABLE],
      retryThrottling: { maxTokens: 2, tokenRatio: 0.1 },
      throttleHedges: false,
    };
    const r = run(opts, (_c, a) => (a === 1 ? { ms: 1, error: status(UNAVAILABLE) } : { ms: 1 }), 6);
    expect(r.results.every((x) => x.attempts === 2 && x.out.ok)).toBe(true);
    expect(r.policy.throttle!.tokens).toBeLessThan(1);
    expect(r.policy.snapshot().throttled).toBe(0);
  });
});

describe('A6HedgePolicy: bad options name the field and A6 rule', () => {
  const clock = new ManualClock();
  const cases: [Partial<A6HedgeOptions>, RegExp][] = [
    [{ maxAttempts: 1, hedgingDelayMs: 1 }, /grpcHedging\.maxAttempts = 1 .*≥ 2/],
    [{ maxAttempts: 2, hedgingDelayMs: -1 }, /grpcHedging\.hedgingDelayMs = -1 .*hedgingDelay ≥ 0/],
    [{ maxAttempts: 2, hedgingDelayMs: 1, nonFatalStatusCodes: [0] }, /nonFatalStatusCodes/],
    [
      { maxAttempts: 2, hedgingDelayMs: 1, retryThrottling: { maxTokens: 0, tokenRatio: 0.1 } },
      /retryThrottling\.maxTokens = 0 .*\(0, 1000\]/,
    ],
    [
      { maxAttempts: 2, hedgingDelayMs: 1, retryThrottling: { maxTokens: 1001, tokenRatio: 0.1 } },
      /retryThrottling\.maxTokens = 1001/,
    ],
    [
      { maxAttempts: 2, hedgingDelayMs: 1, retryThrottling: { maxTokens: 10, tokenRatio: 0.1234 } },
      /retryThrottling\.tokenRatio = 0\.1234 .*3 decimal places/,
    ],
    [
      { maxAttempts: 2, hedgingDelayMs: 1, retryThrottling: { maxTokens: 10, tokenRatio: 0 } },
      /tokenRatio = 0 .*> 0/,
    ],
  ];
  it.each(cases)('%j', (opts, message) => {
    expect(() => new A6HedgePolicy({ ...(opts as A6HedgeOptions), clock })).toThrow(ConfigError);
    expect(() => new A6HedgePolicy({ ...(opts as A6HedgeOptions), clock })).toThrow(message);
  });
  it('accepts tokenRatio with 3 decimals', () => {
    expect(
      () =>
        new A6HedgePolicy({
          clock,
          maxAttempts: 2,
          hedgingDelayMs: 1,
          retryThrottling: { maxTokens: 10, tokenRatio: 0.125 },
        }),
    ).not.toThrow();
  });
});
