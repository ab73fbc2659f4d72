// HedgePolicy on a ManualClock: timing, winner and losers, hedgeOn/abortOn, budget denials, deadline,
// caller cancel, events — and that nothing (timer, listener, running attempt) is left behind.
import { describe, expect, it } from 'vitest';
import {
  type CallState,
  CancelledError,
  DeadlineExceededError,
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
  return { clock, p, policy: p.hedgePolicy!, s, call, results };
}

const slowFirst = (_c: number, a: number): Step => ({ ms: a === 1 ? 50 : 10 });

describe('HedgePolicy timing and winner', () => {
  it('starts the hedge exactly at delay, the winner cancels the loser, nothing is left', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0 }, slowFirst);
    t.call(0);
    t.clock.runUntil(19.999);
    expect(brief(t.s.log)).toEqual(['start 1@0']);
    t.clock.runUntil(20);
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20']);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'end 2@30', 'cancel 1@30']);
    const cancelReason = t.s.log[3].reason;
    expect(cancelReason).toBeInstanceOf(CancelledError);
    expect((cancelReason as CancelledError).code).toBe('HB_CANCELLED');
    expect(t.results).toHaveLength(1);
    expect(t.results[0].at).toBe(30);
    expect(t.results[0].outcome).toEqual({ ok: true, value: 'c0a2' });
    expect(t.results[0].state).toMatchObject({ attempts: 2, winner: 2, skipped: 0, rejected: false });
    expect(t.clock.pending()).toBe(0);
    expect(t.s.live()).toBe(0);
    expect(t.policy.snapshot()).toMatchObject({
      calls: 1,
      hedges: 1,
      won: 1,
      wonByAttempt: [0, 0, 1],
      active: 0,
    });
  });

  it('a first attempt that wins before the delay clears the hedge timer', () => {
    const t = setup({ delayMs: 20 }, () => ({ ms: 7 }));
    t.call(0);
    t.clock.advance(7);
    expect(t.results[0].outcome).toEqual({ ok: true, value: 'c0a1' });
    expect(t.clock.pending()).toBe(0);
    expect(brief(t.s.log)).toEqual(['start 1@0', 'end 1@7']);
  });

  it('an operation that completes synchronously needs no timer at all', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20 });
    const run = p.compose<number>((_s, attempt, done) => {
      done({ ok: true, value: attempt });
      return () => {};
    });
    const state = p.newCall(3);
    let got: Outcome<number> | undefined;
    run(state, 1, (o) => {
      got = o;
    });
    expect(got).toEqual({ ok: true, value: 1 });
    expect(state).toMatchObject({ call: 3, attempts: 1, winner: 1 });
    expect(clock.pending()).toBe(0);
  });

  it('maxAttempts 3: hedges at delay after the most recent start; the first success wins', () => {
    const t = setup({ delayMs: 20, maxAttempts: 3, budgetPercent: 0 }, (_c, a) => ({
      ms: [0, 100, 70, 15][a],
    }));
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual([
      'start 1@0',
      'start 2@20',
      'start 3@40',
      'end 3@55',
      'cancel 1@55',
      'cancel 2@55',
    ]);
    expect(t.results[0].state).toMatchObject({ attempts: 3, winner: 3 });
    expect(t.clock.pending()).toBe(0);
  });

  it('all attempts failed: fails with the error of the last one to finish and emits failed', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0 }, (_c, a) => ({
      ms: a === 1 ? 45 : 10,
      error: `e${a}`,
    }));
    const failed: unknown[] = [];
    t.policy.onFailed((_s, e) => failed.push(e));
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'end 2@30', 'end 1@45']);
    expect(t.results[0]).toMatchObject({ at: 45, outcome: { ok: false, error: 'e1' } });
    expect(failed).toEqual(['e1']);
    expect(t.results[0].state.winner).toBe(0);
    expect(t.clock.pending()).toBe(0);
  });

  it('another failure waits: the next attempt still starts at delay after the most recent start', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0 }, (_c, a) =>
      a === 1 ? { ms: 5, error: 'e1' } : { ms: 10 },
    );
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'end 1@5', 'start 2@20', 'end 2@30']);
    expect(t.results[0]).toMatchObject({ at: 30, outcome: { ok: true, value: 'c0a2' } });
  });
});

describe('HedgePolicy hedgeOn / abortOn', () => {
  const hedgeOn = (e: unknown) => e === 'busy';
  const abortOn = (e: unknown) => e === 'fatal';

  it('a hedgeOn failure starts the next attempt at once; the one after is again delay later', () => {
    const t = setup({ delayMs: 20, maxAttempts: 3, budgetPercent: 0, hedgeOn }, (_c, a) =>
      a === 1 ? { ms: 5, error: 'busy' } : { ms: 100 },
    );
    t.call(0);
    t.clock.runUntil(60);
    expect(brief(t.s.log)).toEqual(['start 1@0', 'end 1@5', 'start 2@5', 'start 3@25']);
    t.clock.runAll();
    expect(t.results[0]).toMatchObject({ at: 105, outcome: { ok: true, value: 'c0a2' } });
    expect(t.clock.pending()).toBe(0);
  });

  it('a hedgeOn failure of the last allowed attempt ends the call when nothing else runs', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0, hedgeOn }, () => ({ ms: 5, error: 'busy' }));
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'end 1@5', 'start 2@5', 'end 2@10']);
    expect(t.results[0]).toMatchObject({ at: 10, outcome: { ok: false, error: 'busy' } });
  });

  it('an abortOn failure ends the call at once and cancels the others', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0, abortOn }, (_c, a) =>
      a === 1 ? { ms: 25, error: 'fatal' } : { ms: 100 },
    );
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'end 1@25', 'cancel 2@25']);
    expect(t.results[0]).toMatchObject({ at: 25, outcome: { ok: false, error: 'fatal' } });
    expect(t.clock.pending()).toBe(0);
  });
});

describe('HedgePolicy budget', () => {
  it('denies hedges the budget cannot cover, emits skipped, and starts nothing more for that call', () => {
    // 10 %, no reserve: cost 10 000, each call deposits 1000 → the 10th call is the first that may hedge.
    const t = setup({ delayMs: 20, maxAttempts: 3, budgetMinHedgesPerSecond: 0 }, () => ({ ms: 50 }));
    const skipped: string[] = [];
    const hedged: string[] = [];
    t.policy.onSkipped((s, a) => skipped.push(`${s.call}:${a}`));
    t.policy.onHedged((s, a) => hedged.push(`${s.call}:${a}`));
    for (let i = 1; i <= 10; i++) {
      t.call(i);
      t.clock.advance(100);
    }
    expect(skipped).toEqual(['1:2', '2:2', '3:2', '4:2', '5:2', '6:2', '7:2', '8:2', '9:2', '10:3']);
    expect(hedged).toEqual(['10:2']);
    expect(t.results.map((r) => r.state.skipped)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(t.results.map((r) => r.state.attempts)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    // Skipped calls still finish with their running attempt.
    expect(t.results.every((r) => r.outcome.ok)).toBe(true);
    expect(t.policy.snapshot()).toMatchObject({ calls: 10, hedges: 1, skipped: 10, budgetAvailable: 0 });
    expect(t.clock.pending()).toBe(0);
  });

  it('with defaults, hedges per window stay within 10 % of calls + 10', () => {
    const t = setup({ delayMs: 20 }, slowFirst);
    for (let i = 0; i < 200; i++) {
      t.call(i);
      t.clock.advance(25); // 200 calls in 5 s, all inside one budget window
    }
    t.clock.runAll();
    // Hand count: call i (0-based) hedges at 25i + 20, after i + 1 deposits: balance = 100 000 + 1000(i + 1)
    // − 10 000·(hedges so far), granted when ≥ 10 000. Calls 0..10 hedge (11 hedges, balance 1000 left);
    // 9 deposits later call 19 finds exactly 10 000, then every 10th call: 29, …, 199 — 30 = 10 % of 200 + 10.
    const hedgedCalls: number[] = [];
    for (let i = 0; i < 200; i++)
      if (t.results.find((r) => r.state.call === i)!.state.attempts === 2) hedgedCalls.push(i);
    expect(hedgedCalls).toEqual([
      ...Array.from({ length: 11 }, (_, i) => i),
      ...Array.from({ length: 19 }, (_, i) => 19 + 10 * i),
    ]);
    expect(t.policy.snapshot().hedges).toBe(30);
    expect(t.policy.budget!.balance(t.clock.now())).toBe(0);
  });
});

describe('HedgePolicy deadline and cancellation', () => {
  it('does not start a hedge with less than minRemainingMs left; fails at the deadline, cancelling all', () => {
    const t = setup(
      { delayMs: 20, maxAttempts: 3, budgetPercent: 0, deadlineMs: 50, minRemainingMs: 25 },
      () => ({
        ms: 100,
      }),
    );
    t.call(0);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'cancel 1@50', 'cancel 2@50']);
    expect(t.results[0].at).toBe(50);
    const error = (t.results[0].outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(t.s.log[2].reason).toBe(error);
    expect(t.policy.snapshot()).toMatchObject({ deadlineSkipped: 1, deadlineExceeded: 1, failed: 1 });
    expect(t.clock.pending()).toBe(0);
  });

  it('a caller cancel stops every attempt with its reason and never calls done', () => {
    const t = setup({ delayMs: 20, maxAttempts: 3, budgetPercent: 0 }, () => ({ ms: 100 }));
    const cancel = t.call(0);
    t.clock.advance(25);
    const reason = new Error('caller gave up');
    cancel(reason);
    cancel(reason);
    t.clock.runAll();
    expect(brief(t.s.log)).toEqual(['start 1@0', 'start 2@20', 'cancel 1@25', 'cancel 2@25']);
    expect(t.s.log[2].reason).toBe(reason);
    expect(t.results).toHaveLength(0);
    expect(t.policy.snapshot()).toMatchObject({ cancelled: 1, active: 0 });
    expect(t.clock.pending()).toBe(0);
  });

  it('ignores a late done from an attempt that was already cancelled', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0 });
    // This operation ignores cancellation and reports anyway.
    const run = p.compose<number>((_s, attempt, done) => {
      clock.setTimer(() => done({ ok: true, value: attempt }), attempt === 1 ? 50 : 10);
      return () => {};
    });
    const got: Outcome<number>[] = [];
    run(p.newCall(0), 1, (o) => got.push(o));
    clock.runAll();
    expect(got).toEqual([{ ok: true, value: 2 }]);
  });

  it('cancels an attempt whose operation ended the call before returning its canceller', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0 });
    let finishFirst: (() => void) | undefined;
    const cancelled: number[] = [];
    // Starting attempt 2 synchronously completes attempt 1 (as a transport might when it frees a slot).
    const run = p.compose<number>((_s, attempt, done) => {
      if (attempt === 1) finishFirst = () => done({ ok: true, value: 1 });
      else finishFirst!();
      return () => cancelled.push(attempt);
    });
    const got: Outcome<number>[] = [];
    run(p.newCall(0), 1, (o) => got.push(o));
    clock.runAll();
    expect(got).toEqual([{ ok: true, value: 1 }]);
    expect(cancelled).toEqual([2]);
    expect(clock.pending()).toBe(0);
  });

  it('events cost nothing unheard and stop after unsubscribe', () => {
    const t = setup({ delayMs: 20, budgetPercent: 0 }, slowFirst);
    const won: number[] = [];
    const off = t.policy.onWon((_s, a) => won.push(a));
    t.call(0);
    t.clock.runAll();
    off();
    t.call(1);
    t.clock.runAll();
    expect(won).toEqual([2]);
    expect(t.policy.wonListeners).toHaveLength(0);
  });
});
