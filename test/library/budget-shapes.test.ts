// The budget shapes on a ManualClock: the concurrency cap on hedges in flight (released when a hedge ends,
// loses or is cancelled), gRFC A6's tokens over hedges (drained by hedges and failures, refilled by
// successes), and server pushback (no hedge of any call until it passes; later ones only extend it).
// A refusal counts as today's does: CallState.skipped, snapshot().skipped, onSkipped.
import { describe, expect, it } from 'vitest';
import {
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
  const policy = p.hedgePolicy!;
  const results: { at: number; state: CallState; outcome: Outcome<string> }[] = [];
  const cancels: ((reason?: unknown) => void)[] = [];
  const skipped: string[] = [];
  policy.onSkipped((st, a) => skipped.push(`${st.call}.${a}@${clock.now()}`));
  const call = (i: number) => {
    const state = p.newCall(i);
    cancels[i] = run(state, 1, (outcome) => results.push({ at: clock.now(), state, outcome }));
  };
  const callAt = (i: number, at: number) => clock.setTimer(() => call(i), at - clock.now());
  return { clock, policy, s, call, callAt, cancels, results, skipped };
}

describe("budget { kind: 'concurrency' }", () => {
  it('caps hedges in flight at max(min, floor(percent % of calls in flight)) and frees a slot on end or cancel', () => {
    const t = setup({ delayMs: 10, budget: { kind: 'concurrency', percent: 50, min: 1 } }, (c, a) => {
      if (c === 0 && a === 1) return { ms: 15 }; // wins at 15: its hedge is cancelled, freeing a slot
      if (c === 4 && a === 2) return { ms: 14, error: 'e' }; // a hedge that fails at 40 frees its slot too
      return { ms: 100 };
    });
    for (let i = 0; i < 4; i++) t.call(i);
    t.clock.runUntil(12);
    // 4 calls in flight → cap 2: calls 0 and 1 hedge at 10, calls 2 and 3 are refused.
    expect(t.policy.snapshot()).toMatchObject({
      hedges: 2,
      skipped: 2,
      hedgesInFlight: 2,
      budgetAvailable: 0,
    });
    expect(t.skipped).toEqual(['2.2@10', '3.2@10']);
    t.clock.runUntil(15);
    expect(t.policy.snapshot().hedgesInFlight).toBe(1);
    t.callAt(4, 16);
    t.clock.runUntil(26); // 4 calls in flight again, 1 hedge: call 4 may hedge
    expect(t.policy.snapshot()).toMatchObject({ hedges: 3, hedgesInFlight: 2 });
    t.cancels[1](new Error('caller gave up'));
    expect(t.policy.snapshot().hedgesInFlight).toBe(1);
    t.clock.runUntil(40);
    expect(t.policy.snapshot().hedgesInFlight).toBe(0);
    t.clock.runAll();
    expect(t.results.map((r) => [r.state.call, r.state.skipped])).toEqual([
      [0, 0],
      [2, 1],
      [3, 1],
      [4, 0],
    ]);
    expect(t.policy.snapshot()).toMatchObject({ skipped: 2, hedgesInFlight: 0, active: 0 });
    expect(t.clock.pending()).toBe(0);
    expect(t.s.live()).toBe(0);
  });

  it("defaults to Envoy's 20 % and at least 3", () => {
    const t = setup({ delayMs: 10, maxAttempts: 6, budget: { kind: 'concurrency' } }, () => ({ ms: 100 }));
    expect(t.policy.settings.budget).toEqual({ kind: 'concurrency', percent: 20, min: 3, pushback: false });
    t.call(0);
    t.clock.runAll();
    // One call in flight: floor(0.2) = 0, so the floor of 3 hedges in flight holds; the 4th hedge is refused.
    expect(brief(t.s.log).filter((e) => e.startsWith('start'))).toEqual([
      'start 1@0',
      'start 2@10',
      'start 3@20',
      'start 4@30',
    ]);
    expect(t.skipped).toEqual(['0.5@40']);
  });
});

describe("budget { kind: 'tokens' }", () => {
  it('takes a token per hedge sent and per failed attempt, adds tokenRatio per success, hedges only above half', () => {
    // maxTokens 4: hedging needs tokens > 2.
    const plans: ((a: number) => Step)[] = [
      (a) => ({ ms: a === 1 ? 100 : 5 }), // hedge (−1), success (+0.5): 3.5
      (a) => (a === 1 ? { ms: 5, error: 'e' } : { ms: 5 }), // failure (−1), hedge at 10 (−1), success: 2
      () => ({ ms: 100 }), // 2 is not > 2: refused; success: 2.5
      () => ({ ms: 5 }), // 3
      () => ({ ms: 5 }), // 3.5
      () => ({ ms: 5 }), // 4
      () => ({ ms: 5 }), // capped at 4
      () => ({ ms: 5, error: 'e' }), // failure (3), hedge at 10 (2), its failure (1); the call fails
      () => ({ ms: 100 }), // refused; success: 1.5
    ];
    const t = setup({ delayMs: 10, budget: { kind: 'tokens', maxTokens: 4, tokenRatio: 0.5 } }, (c, a) =>
      c < plans.length ? plans[c](a) : { ms: 5 },
    );
    const tokens: number[] = [];
    for (let i = 0; i < plans.length; i++) {
      t.call(i);
      t.clock.runAll();
      tokens.push(t.policy.snapshot().tokens!);
    }
    expect(tokens).toEqual([3.5, 2, 2.5, 3, 3.5, 4, 4, 1, 1.5]);
    expect(t.results.map((r) => r.state.skipped)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 1]);
    expect(t.results.map((r) => r.outcome.ok)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      true,
    ]);
    expect(t.skipped.map((e) => e.split('@')[0])).toEqual(['2.2', '8.2']);
    expect(t.policy.snapshot()).toMatchObject({ budgetAvailable: 0, skipped: 2 });
    // Two more successes refill past half: 2.5 allows one hedge.
    t.call(9);
    t.clock.runAll();
    t.call(10);
    t.clock.runAll();
    expect(t.policy.snapshot()).toMatchObject({ tokens: 2.5, budgetAvailable: 1 });
    expect(t.clock.pending()).toBe(0);
  });
});

describe("budget { kind: 'pushback' } and pushback: true", () => {
  it('after an outcome with pushbackMs, no hedge of any call starts until it passes; a later one only extends it', () => {
    const plan = (c: number): Step =>
      c === 0
        ? { ms: 5, pushbackMs: 100 } // at 5: no hedge before 105
        : c === 3
          ? { ms: 5, error: 'unavailable', pushbackMs: 50 } // at 205: none before 255
          : c === 4
            ? { ms: 4, pushbackMs: 10 } // at 210: 220 < 255, so still 255
            : { ms: 100 };
    const t = setup({ delayMs: 10, budget: { kind: 'pushback' } }, plan);
    t.callAt(0, 0);
    t.callAt(1, 20); // its hedge at 30 is refused
    t.callAt(2, 95); // its hedge at 105 goes: the pushback has passed
    t.callAt(3, 200);
    t.callAt(4, 206);
    t.callAt(5, 240); // hedge at 250: refused
    t.callAt(6, 245); // hedge at 255: goes
    t.clock.runUntil(50);
    expect(t.policy.snapshot()).toMatchObject({ pushbackUntil: 105, budgetAvailable: 0, skipped: 1 });
    t.clock.runUntil(230);
    expect(t.policy.snapshot()).toMatchObject({ pushbackUntil: 255, budgetAvailable: 0 });
    t.clock.runAll();
    expect(t.skipped).toEqual(['1.2@30', '3.2@210', '5.2@250']);
    const hedged = t.s.log
      .filter((e) => e.what === 'start' && e.attempt === 2)
      .map((e) => `${e.call}@${e.at}`);
    expect(hedged).toEqual(['2@105', '6@255']);
    expect(t.policy.snapshot()).toMatchObject({
      skipped: 3,
      pushbackSkipped: 3,
      pushbackUntil: 255,
      budgetAvailable: Number.POSITIVE_INFINITY,
    });
    // Call 3's only attempt failed and its hedge was refused: it ends then, with its error.
    expect(t.results.find((r) => r.state.call === 3)).toMatchObject({ at: 210, outcome: { ok: false } });
    expect(t.clock.pending()).toBe(0);
  });

  it('the ratio budget honours pushback only when asked to (pushback: true)', () => {
    const plan = (c: number): Step => (c === 0 ? { ms: 5, pushbackMs: 100 } : { ms: 100 });
    const hedgedWith = (options: HedgeStepOptions) => {
      const t = setup({ delayMs: 10, ...options }, plan);
      t.call(0);
      t.clock.runUntil(20);
      t.call(1);
      t.clock.runAll();
      return [t.results[1].state.attempts, t.results[1].state.skipped, t.policy.snapshot().pushbackSkipped];
    };
    expect(hedgedWith({})).toEqual([2, 0, 0]);
    expect(hedgedWith({ budget: { kind: 'ratio', pushback: true } })).toEqual([1, 1, 1]);
    expect(hedgedWith({ budgetPercent: 0, budget: { kind: 'ratio', pushback: true } })).toEqual([1, 1, 1]);
    expect(hedgedWith({ budget: { kind: 'tokens', maxTokens: 10, tokenRatio: 1, pushback: true } })).toEqual([
      1, 1, 1,
    ]);
    expect(hedgedWith({ budget: { kind: 'concurrency' } })).toEqual([2, 0, 0]);
  });

  it('ignores a pushback that is not a positive finite time', () => {
    for (const pushbackMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const t = setup({ delayMs: 10, budget: { kind: 'pushback' } }, (c) =>
        c === 0 ? { ms: 5, pushbackMs } : { ms: 100 },
      );
      t.call(0);
      t.call(1);
      t.clock.runAll();
      expect(t.policy.snapshot()).toMatchObject({ hedges: 1, skipped: 0, pushbackUntil: undefined });
    }
  });
});
