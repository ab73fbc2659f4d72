// The percentile hedge delay on a ManualClock: the fixed delay until minSamples, then the window's
// percentile (every attempt recorded: winners, losers, failures, cancellations), floor and cap, the window
// forgetting old samples, until 'none', Cassandra's min/max combine, and the metamorphic check that over a
// constant service time the percentile delay behaves exactly as the fixed delay of that constant.
import { describe, expect, it } from 'vitest';
import {
  BUCKET_VALUE,
  bucketOf,
  type CallState,
  type HedgeStepOptions,
  ManualClock,
  type Outcome,
  pipeline,
} from '../../library/index.ts';
import { brief, type Step, scripted } from './scripted.ts';

function setup(options: HedgeStepOptions, plan: (call: number, attempt: number) => Step) {
  const clock = new ManualClock();
  const p = pipeline(clock).hedge(options);
  const s = scripted(clock, plan);
  const run = p.compose(s.op);
  const results: { at: number; state: CallState; outcome: Outcome<string> }[] = [];
  const cancels = new Map<number, (reason?: unknown) => void>();
  const call = (i: number) => {
    const state = p.newCall(i);
    cancels.set(
      i,
      run(state, 1, (outcome) => results.push({ at: clock.now(), state, outcome })),
    );
  };
  /** Starts call i at time `at`. */
  const callAt = (i: number, at: number) => clock.setTimer(() => call(i), at - clock.now());
  const delayAt = (t: number) => {
    clock.runUntil(t);
    return policy.snapshot().delayMs;
  };
  const policy = p.hedgePolicy!;
  return { clock, policy, s, call, callAt, cancels, results, delayAt };
}

/** What the histogram reports for a sample of `v` ms among others: its bucket's midpoint. */
const reported = (v: number) => BUCKET_VALUE[bucketOf(v)];
const rule = { windowMs: 1000, minSamples: 10 }; // 5 slots of 200 ms

describe('percentile delay', () => {
  it('uses delayMs until the window holds minSamples, then the percentile, refreshed at the slot boundary', () => {
    // Calls 0..9 at 10 ms apart take 1..10 ms: ten samples in the slot [0, 200), no hedge.
    const t = setup({ delayMs: 20, budgetPercent: 0, delay: { percentile: 50, ...rule } }, (c, a) =>
      c < 10 ? { ms: c + 1 } : { ms: a === 1 ? 100 : 1 },
    );
    for (let i = 0; i < 10; i++) t.callAt(i, 10 * i);
    expect(t.delayAt(199.9)).toBe(20);
    expect(t.policy.snapshot().percentileMs).toBeNaN();
    // p50 of 1..10 by nearest rank = the 5th = 5 ms, reported as its bucket's midpoint (within 0.8 %).
    expect(t.delayAt(200)).toBe(reported(5));
    expect(reported(5)).toBeCloseTo(5, 1);
    t.call(10);
    t.clock.runAll();
    expect(brief(t.s.log.filter((e) => e.call === 10))).toEqual([
      'start 1@200',
      `start 2@${200 + reported(5)}`,
      `end 2@${201 + reported(5)}`,
      `cancel 1@${201 + reported(5)}`,
    ]);
    expect(t.clock.pending()).toBe(0);
    expect(t.s.live()).toBe(0);
  });

  it('with one sample short of minSamples, stays at delayMs', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0, delay: { percentile: 50, ...rule } }, (c) => ({
      ms: c + 1,
    }));
    for (let i = 0; i < 9; i++) t.callAt(i, 10 * i);
    expect(t.delayAt(200)).toBe(20);
    expect(t.policy.snapshot()).toMatchObject({ percentileMs: Number.NaN });
  });

  it('floorMs and capMs clamp the percentile', () => {
    const at200 = (extra: object) => {
      const t = setup(
        { delayMs: 20, budgetPercent: 0, delay: { percentile: 50, ...rule, ...extra } },
        (c) => ({
          ms: c + 1,
        }),
      );
      for (let i = 0; i < 10; i++) t.callAt(i, 10 * i);
      return t.delayAt(200);
    };
    expect(at200({ floorMs: 8 })).toBe(8);
    expect(at200({ capMs: 3 })).toBe(3);
    expect(at200({ floorMs: 2, capMs: 9 })).toBe(reported(5));
    expect(at200({ floorMs: 7, capMs: 7 })).toBe(7);
  });

  it('forgets samples windowMs after their slot completed', () => {
    // 4 × 10 ms in [0, 200), 6 × 50 ms in [400, 600); p30 of both = 10, of the second alone = 50.
    const t = setup(
      { delayMs: 100, budgetPercent: 0, delay: { percentile: 30, windowMs: 1000, minSamples: 5 } },
      (c) => ({
        ms: c < 4 ? 10 : 50,
      }),
    );
    for (let i = 0; i < 4; i++) t.callAt(i, i);
    for (let i = 4; i < 10; i++) t.callAt(i, 400 + i);
    expect(t.delayAt(200)).toBe(100); // 4 < minSamples
    expect(t.delayAt(600)).toBe(reported(10)); // 10 ms's bucket
    expect(t.delayAt(1199)).toBe(reported(10)); // window [0, 1000)
    expect(t.delayAt(1200)).toBe(50); // window [200, 1200): the 10 ms samples are gone; 50 = min = max, exact
    expect(t.delayAt(1600)).toBe(100); // window [600, 1600): empty, below minSamples again
    expect(t.policy.delayRule!.state(1600)).toMatchObject({ windowSamples: 0, recorded: 10 });
  });

  it('records every attempt: the winner, the loser it cancelled, a failure, and a caller cancel', () => {
    const t = setup(
      { delayMs: 20, budgetPercent: 0, delay: { percentile: 99, windowMs: 1000, minSamples: 1 } },
      (c, a) =>
        c === 0
          ? { ms: a === 1 ? 100 : 10 } // a2 wins at 30 (10 ms), a1 lost at 30 (30 ms)
          : c === 1
            ? a === 1
              ? { ms: 7, error: 'busy' } // a1 fails at 7 (7 ms), a2 from 20 wins at 30 (10 ms)
              : { ms: 10 }
            : { ms: 100 }, // call 2 is cancelled by its caller at 45: a1 45 ms, a2 25 ms
    );
    t.call(0);
    t.call(1);
    t.call(2);
    t.clock.runUntil(45);
    t.cancels.get(2)!(new Error('caller gave up'));
    t.clock.runUntil(100);
    expect(t.policy.delayRule!.state(100)).toMatchObject({ recorded: 6, windowSamples: 0 });
    // At the boundary the window holds all six; p99 of six = the largest, 45 ms, exactly (the window's max).
    expect(t.delayAt(200)).toBe(45);
    expect(t.policy.delayRule!.state(200)).toMatchObject({ windowSamples: 6, percentileMs: 45 });
    expect(t.clock.pending()).toBe(0);
    expect(t.s.live()).toBe(0);
  });

  it('does not record an attempt the adaptive limit refused (it was never sent)', () => {
    const clock = new ManualClock();
    const p = pipeline(clock)
      .hedge({ delayMs: 20, budgetPercent: 0, delay: { percentile: 50, windowMs: 1000, minSamples: 1 } })
      .adaptiveLimit({ initialLimit: 1, minLimit: 1, maxLimit: 1 });
    const s = scripted(clock, () => ({ ms: 100 }));
    const run = p.compose(s.op);
    const state = p.newCall(0);
    run(state, 1, () => {});
    clock.runAll();
    expect(state).toMatchObject({ attempts: 1, limited: 1, winner: 1 });
    expect(p.hedgePolicy!.delayRule!.state(clock.now())).toMatchObject({ recorded: 1 });
  });

  it("until 'none': no timed hedge before minSamples, the percentile after", () => {
    const t = setup(
      {
        delayMs: 20,
        budgetPercent: 0,
        delay: { percentile: 50, windowMs: 1000, minSamples: 3, until: 'none' },
      },
      (c, a) => (c < 3 ? { ms: 100 } : { ms: a === 1 ? 300 : 10 }),
    );
    expect(t.delayAt(0)).toBe(Number.POSITIVE_INFINITY);
    for (let i = 0; i < 3; i++) t.callAt(i, 10 * i);
    t.clock.runUntil(199);
    expect(t.s.log.filter((e) => e.what === 'start').map((e) => `${e.call}.${e.attempt}`)).toEqual([
      '0.1',
      '1.1',
      '2.1',
    ]);
    expect(t.results.map((r) => r.state.attempts)).toEqual([1, 1, 1]);
    expect(t.delayAt(200)).toBe(100);
    t.call(3);
    t.clock.runAll();
    expect(brief(t.s.log.filter((e) => e.call === 3))).toEqual([
      'start 1@200',
      'start 2@300',
      'end 2@310',
      'cancel 1@310',
    ]);
    expect(t.clock.pending()).toBe(0);
  });

  it("combine 'min' / 'max': Cassandra's MIN(Xp, Nms) and MAX(Xp, Nms), once the percentile exists", () => {
    const at = (delayMs: number, combine: 'min' | 'max', until?: 'none') => {
      const t = setup(
        { delayMs, budgetPercent: 0, delay: { percentile: 90, ...rule, combine, until } },
        () => ({ ms: 50 }),
      );
      const before = t.delayAt(0);
      for (let i = 0; i < 10; i++) t.callAt(i, i);
      return [before, t.delayAt(200)];
    };
    expect(at(20, 'min')).toEqual([20, 20]);
    expect(at(20, 'max')).toEqual([20, 50]);
    expect(at(80, 'min')).toEqual([80, 50]);
    expect(at(80, 'max')).toEqual([80, 80]);
    expect(at(80, 'max', 'none')).toEqual([Number.POSITIVE_INFINITY, 80]);
  });

  it('metamorphic: over a constant service time, the percentile delay behaves as the fixed delay of that constant', () => {
    // Exact in binary, so every duration (end − start on the clock) is exactly c, as the fixed delay is.
    const c = 12.25;
    // 40 calls of constant c fill the first slot; from 200 on, every third call's first attempt is slow
    // (5c), so the hedge decides its latency. All of it ends before the next slot boundary (400).
    const plan = (call: number, attempt: number): Step => ({
      ms: call >= 40 && call % 3 === 0 && attempt === 1 ? 5 * c : c,
    });
    const run = (options: HedgeStepOptions) => {
      const t = setup({ budgetPercent: 0, ...options }, plan);
      for (let i = 0; i < 40; i++) t.callAt(i, 4 * i);
      for (let i = 40; i < 60; i++) t.callAt(i, 200 + 4 * (i - 40));
      t.clock.runUntil(200);
      const delay = t.policy.snapshot().delayMs;
      t.clock.runAll();
      const results = t.results.map((r) => [r.at, r.outcome, r.state.attempts, r.state.winner]);
      return {
        delay,
        log: brief(t.s.log),
        results,
        hedges: t.policy.snapshot().hedges,
        pending: t.clock.pending(),
      };
    };
    const fixed = run({ delayMs: c });
    const pct = run({ delayMs: 1000, delay: { percentile: 90, windowMs: 1000, minSamples: 20 } });
    expect(pct.delay).toBe(c);
    expect(fixed.hedges).toBe(6); // calls 42, 45, …, 57
    expect(pct.log).toEqual(fixed.log);
    expect(pct.results).toEqual(fixed.results);
    expect(pct.hedges).toBe(fixed.hedges);
    expect(pct.pending).toBe(0);
  });
});
