// The winner rule on a ManualClock: first-completion ends the call with the first attempt to end, error or
// not; first-success outwaits a fast failure and wins with the hedge; a lone failure waits for the timer or,
// with loneFailure 'hedge-now', starts the next attempt at once; hedges sent because an attempt failed are
// counted apart (CallState.hedgedOnError, snapshot().hedgedOnError).
import { describe, expect, it } from 'vitest';
import {
  A6HedgePolicy,
  type CallState,
  CancelledError,
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
  const call = (i: number) => {
    const state = p.newCall(i);
    return run(state, 1, (outcome) => results.push({ at: clock.now(), state, outcome }));
  };
  return { clock, policy: p.hedgePolicy!, s, call, results };
}

const unavailable = Object.assign(new Error('503 Service Unavailable'), { status: 503 });
/** Attempt 1 fails fast with a 503; the hedge succeeds 10 ms after it starts. */
const fastFailure = (_c: number, a: number): Step => (a === 1 ? { ms: 5, error: unavailable } : { ms: 10 });

describe('winner rule', () => {
  it('first-completion returns the fast error that first-success outwaits', () => {
    const fc = setup({ delayMs: 20, budgetPercent: 0, winner: 'first-completion' }, fastFailure);
    fc.call(0);
    fc.clock.runAll();
    expect(brief(fc.s.log)).toEqual(['start 1@0', 'end 1@5']);
    expect(fc.results[0]).toMatchObject({ at: 5, outcome: { ok: false, error: unavailable } });
    expect(fc.results[0].state).toMatchObject({ attempts: 1, winner: 0 });
    expect(fc.policy.snapshot()).toMatchObject({ failed: 1, won: 0, hedges: 0, active: 0 });
    expect(fc.clock.pending()).toBe(0);

    const fs = setup({ delayMs: 20, budgetPercent: 0 }, fastFailure);
    fs.call(0);
    fs.clock.runAll();
    expect(brief(fs.s.log)).toEqual(['start 1@0', 'end 1@5', 'start 2@20', 'end 2@30']);
    expect(fs.results[0]).toMatchObject({ at: 30, outcome: { ok: true, value: 'c0a2' } });
    expect(fs.results[0].state).toMatchObject({ attempts: 2, winner: 2, hedgedOnError: 0 });
    expect(fs.clock.pending()).toBe(0);
  });

  it('first-completion: a hedge that fails first ends the call and cancels the attempt still running', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0, winner: 'first-completion' }, (_c, a) =>
      a === 1 ? { ms: 100 } : { ms: 5, error: unavailable },
    );
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'end 2@25', 'cancel 1@25']);
    expect(t.s.log[3].reason).toBeInstanceOf(CancelledError);
    expect(t.results[0]).toMatchObject({ at: 25, outcome: { ok: false, error: unavailable } });
    // first-success, same plan: waits for attempt 1 and wins with it.
    const fs = setup({ delayMs: 20, budgetPercent: 0 }, (_c, a) =>
      a === 1 ? { ms: 100 } : { ms: 5, error: unavailable },
    );
    fs.call(0);
    fs.clock.runAll();
    expect(fs.results[0]).toMatchObject({ at: 100, outcome: { ok: true, value: 'c0a1' } });
  });

  it('first-completion still wins with a success, and an attempt the limit refused is no completion', () => {
    const clock = new ManualClock();
    const p = pipeline(clock)
      .hedge({ delayMs: 20, budgetPercent: 0, winner: 'first-completion' })
      .adaptiveLimit({ initialLimit: 1, minLimit: 1, maxLimit: 1 });
    const s = scripted(clock, () => ({ ms: 50 }));
    const state = p.newCall(0);
    const got: Outcome<string>[] = [];
    p.compose(s.op)(state, 1, (o) => got.push(o));
    clock.runAll();
    expect(got).toEqual([{ ok: true, value: 'c0a1' }]);
    expect(state).toMatchObject({ attempts: 1, limited: 1, winner: 1, rejected: false });
  });

  it("loneFailure 'hedge-now': the only running attempt failing starts the next at once, counted apart", () => {
    const t = setup({ delayMs: 20, budgetPercent: 0, maxAttempts: 3, loneFailure: 'hedge-now' }, (_c, a) =>
      a === 1 ? { ms: 5, error: unavailable } : { ms: 30 },
    );
    t.call(0);
    t.clock.runAll();
    // The hedge after the failure goes at 5; the next timed one 20 ms after that start.
    expect(brief(t.s.log)).toEqual([
      'start 1@0',
      'end 1@5',
      'start 2@5',
      'start 3@25',
      'end 2@35',
      'cancel 3@35',
    ]);
    expect(t.results[0]).toMatchObject({ at: 35, outcome: { ok: true, value: 'c0a2' } });
    expect(t.results[0].state).toMatchObject({ attempts: 3, winner: 2, hedgedOnError: 1 });
    expect(t.policy.snapshot()).toMatchObject({ hedges: 2, hedgedOnError: 1 });
    expect(t.clock.pending()).toBe(0);
  });

  it("loneFailure 'hedge-now' waits while another attempt runs, and ends the call when the budget refuses", () => {
    const running = setup(
      { delayMs: 20, budgetPercent: 0, maxAttempts: 3, loneFailure: 'hedge-now' },
      (_c, a) => (a === 2 ? { ms: 5, error: unavailable } : { ms: 100 }),
    );
    running.call(0);
    running.clock.runAll();
    // Attempt 2 fails at 25 while attempt 1 runs: not lone, so attempt 3 still waits for 40.
    expect(brief(running.s.log).slice(0, 4)).toEqual(['start 1@0', 'start 2@20', 'end 2@25', 'start 3@40']);
    expect(running.results[0].state.hedgedOnError).toBe(0);

    // A ratio budget with no reserve and too few calls refuses: the call ends with the failure at once.
    const refused = setup({ delayMs: 20, budgetMinHedgesPerSecond: 0, loneFailure: 'hedge-now' }, () => ({
      ms: 5,
      error: unavailable,
    }));
    refused.call(0);
    refused.clock.runAll();
    expect(refused.results[0]).toMatchObject({ at: 5, outcome: { ok: false, error: unavailable } });
    expect(refused.results[0].state).toMatchObject({ attempts: 1, skipped: 1, hedgedOnError: 0 });
    expect(refused.clock.pending()).toBe(0);
  });

  it('hedgeOn hedges count as hedgedOnError; timed hedges do not', () => {
    const t = setup(
      { delayMs: 20, budgetPercent: 0, maxAttempts: 3, hedgeOn: (e) => e === unavailable },
      (_c, a) => (a === 1 ? { ms: 100 } : a === 2 ? { ms: 5, error: unavailable } : { ms: 10 }),
    );
    t.call(0);
    t.clock.runAll();
    // Timed hedge at 20, it fails at 25 and hedgeOn starts attempt 3 at once.
    expect(brief(t.s.log)).toEqual([
      'start 1@0',
      'start 2@20',
      'end 2@25',
      'start 3@25',
      'end 3@35',
      'cancel 1@35',
    ]);
    expect(t.results[0].state).toMatchObject({ winner: 3, hedgedOnError: 1 });
    expect(t.policy.snapshot()).toMatchObject({ hedges: 2, hedgedOnError: 1 });
  });

  it("A6's non-fatal shortcut counts as hedgedOnError too", () => {
    const clock = new ManualClock();
    const policy = new A6HedgePolicy({
      clock,
      maxAttempts: 3,
      hedgingDelayMs: 50,
      nonFatalStatusCodes: [14],
    });
    const p = pipeline(clock).use(policy);
    const s = scripted(clock, (_c, a) =>
      a === 1 ? { ms: 5, error: Object.assign(new Error('unavailable'), { code: 14 }) } : { ms: 10 },
    );
    const state = p.newCall(0);
    p.compose(s.op)(state, 1, () => {});
    clock.runAll();
    expect(state).toMatchObject({ attempts: 2, winner: 2, hedgedOnError: 1 });
  });
});
