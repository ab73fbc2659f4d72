// AdaptiveLimitPolicy: reject at once, release exactly once on every path, the rtt ≤ 0 guard, and its
// behaviour inside a hedge (refused first attempt ends the call; a refused hedge stops the call's hedging).
import { describe, expect, it } from 'vitest';
import {
  AdaptiveLimitFullError,
  type CallState,
  DeadlineExceededError,
  ManualClock,
  type Operation,
  type Outcome,
  pipeline,
} from '../../library/index.ts';
import { scripted } from './scripted.ts';

function collect<T>() {
  const out: { state: CallState; outcome: Outcome<T> }[] = [];
  return { out, cb: (state: CallState) => (outcome: Outcome<T>) => out.push({ state, outcome }) };
}

describe('AdaptiveLimitPolicy admission', () => {
  it('rejects at once when inflight >= floor(limit), and admits again after a release', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).adaptiveLimit({ initialLimit: 2, minLimit: 1, windowed: false });
    const s = scripted(clock, (c) => ({ ms: 10 + c }));
    const run = p.compose(s.op);
    const r = collect<string>();
    for (let i = 0; i < 3; i++) {
      const st = p.newCall(i);
      run(st, 1, r.cb(st));
    }
    expect(r.out).toHaveLength(1);
    const rejected = r.out[0];
    expect(rejected.state).toMatchObject({ call: 2, attempts: 0, limited: 1, rejected: true, winner: 0 });
    const error = (rejected.outcome as { error: unknown }).error as AdaptiveLimitFullError;
    expect(error).toBeInstanceOf(AdaptiveLimitFullError);
    expect(error.code).toBe('HB_LIMIT_FULL');
    expect(error.message).toContain('2 in flight, limit 2');
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 2, rejected: 1, acquired: 2 });
    clock.advance(10);
    const st = p.newCall(3);
    run(st, 1, r.cb(st));
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 2, rejected: 1, acquired: 3 });
    clock.runAll();
    expect(r.out.map((x) => x.state.winner)).toEqual([0, 1, 1, 1]);
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 0, released: 3, samples: 3 });
  });
});

describe('AdaptiveLimitPolicy release', () => {
  const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });

  it('releases exactly once on success, timeout, other error, cancel and caller abort', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).adaptiveLimit({ windowed: false });
    const lp = p.limitPolicy!;
    const s = scripted(
      clock,
      (c) => [{ ms: 5 }, { ms: 5, error: timeout }, { ms: 5, error: 'boom' }][c] ?? { ms: 50 },
    );
    const run = p.compose(s.op);
    const r = collect<string>();
    for (let i = 0; i < 3; i++) {
      const st = p.newCall(i);
      run(st, 1, r.cb(st));
    }
    clock.advance(5);
    // success → sample; timeout → dropped sample; other error → no sample.
    expect(lp.snapshot()).toMatchObject({
      inflight: 0,
      acquired: 3,
      released: 3,
      samples: 2,
      dropped: 1,
      unsampled: 1,
    });
    const c3 = run(p.newCall(3), 1, () => {});
    const c4 = run(p.newCall(4), 1, () => {});
    const c5 = run(p.newCall(5), 1, () => {});
    c3(new Error('caller aborted')); // cancellation → no sample
    c3(new Error('again')); // second cancel: nothing
    c4(new DeadlineExceededError(10)); // a timeout reason → dropped sample
    c5(undefined);
    clock.runAll();
    expect(lp.snapshot()).toMatchObject({
      inflight: 0,
      acquired: 6,
      released: 6,
      samples: 3,
      dropped: 2,
      unsampled: 3,
    });
    expect(s.live()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('a late done after cancel does not release twice', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).adaptiveLimit({ windowed: false });
    // This operation ignores cancellation.
    const op: Operation<number> = (_s, _a, done) => {
      clock.setTimer(() => done({ ok: true, value: 1 }), 10);
      return () => {};
    };
    const got: Outcome<number>[] = [];
    const cancel = p.compose(op)(p.newCall(0), 1, (o) => got.push(o));
    cancel();
    clock.runAll();
    expect(got).toEqual([]);
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 0, acquired: 1, released: 1, samples: 0 });
  });

  it('ignores rtt 0 (synchronous completion): the limit stays finite and enforced', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).adaptiveLimit({ windowed: false, initialLimit: 3, minLimit: 1 });
    const immediate: Operation<number> = (_s, a, done) => {
      done({ ok: true, value: a });
      return () => {};
    };
    const run = p.compose(immediate);
    for (let i = 0; i < 50; i++) run(p.newCall(i), 1, () => {});
    const snap = p.limitPolicy!.snapshot();
    expect(snap).toMatchObject({ samples: 50, ignored: 50, updates: 0, limit: 3, enforced: 3, inflight: 0 });
    // Admission still works: three held attempts fill the limit, the fourth is refused.
    const held = scripted(clock, () => ({ ms: 10 }));
    const runHeld = p.compose(held.op);
    const r = collect<string>();
    for (let i = 0; i < 4; i++) {
      const st = p.newCall(100 + i);
      runHeld(st, 1, r.cb(st));
    }
    expect(r.out.map((x) => x.state.rejected)).toEqual([true]);
    clock.runAll();
  });

  it('moves the limit through samples and tells listeners when the enforced value changes', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).adaptiveLimit({ windowed: false, initialLimit: 2, minLimit: 1 });
    const changes: number[] = [];
    p.limitPolicy!.onLimitChanged((l) => changes.push(l));
    const s = scripted(clock, () => ({ ms: 10 }));
    const run = p.compose(s.op);
    // Two at a time, inflight at acquire 1 and 2; only the second is ≥ L/2 for L around 2.
    // Each non-app-limited sample with g = 1 adds 0.8: 2 → 2.8 → 3.6 …
    for (let round = 0; round < 3; round++) {
      run(p.newCall(2 * round), 1, () => {});
      run(p.newCall(2 * round + 1), 1, () => {});
      clock.advance(10);
    }
    // Round 1: call 0 (inflight 1 ≥ 1) → 2.8, call 1 (2 ≥ 1.4) → 3.6; round 2: 1 < 1.8 app-limited, 2 ≥ 1.8 → 4.4;
    // round 3: 1 < 2.2 app-limited, 2 < 2.2 app-limited.
    expect(p.limitPolicy!.snapshot().limit).toBeCloseTo(4.4, 12);
    expect(changes).toEqual([3, 4]);
  });
});

describe('AdaptiveLimitPolicy inside a hedge', () => {
  it('a refused first attempt ends the call with AdaptiveLimitFullError and leaves nothing behind', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20 }).adaptiveLimit({ initialLimit: 1, minLimit: 1 });
    const s = scripted(clock, () => ({ ms: 100 }));
    const run = p.compose(s.op);
    const r = collect<string>();
    const a = p.newCall(0);
    const b = p.newCall(1);
    run(a, 1, r.cb(a));
    run(b, 1, r.cb(b));
    expect(r.out).toHaveLength(1);
    expect(r.out[0].state).toMatchObject({ call: 1, attempts: 0, limited: 1, rejected: true });
    expect((r.out[0].outcome as { error: unknown }).error).toBeInstanceOf(AdaptiveLimitFullError);
    expect(p.hedgePolicy!.snapshot()).toMatchObject({ rejected: 1, failed: 1 });
    clock.runAll();
    expect(clock.pending()).toBe(0);
  });

  it('a refused hedge spends its budget, starts nothing more, and the running attempt continues', () => {
    const clock = new ManualClock();
    const p = pipeline(clock)
      .hedge({ delayMs: 20, maxAttempts: 3 })
      .adaptiveLimit({ initialLimit: 1, minLimit: 1 });
    const s = scripted(clock, () => ({ ms: 50 }));
    const run = p.compose(s.op);
    const r = collect<string>();
    const st = p.newCall(0);
    run(st, 1, r.cb(st));
    const before = p.hedgePolicy!.budget!.balance(0);
    clock.runAll();
    expect(r.out).toHaveLength(1);
    expect(r.out[0].outcome).toEqual({ ok: true, value: 'c0a1' });
    expect(st).toMatchObject({ attempts: 1, limited: 1, winner: 1, rejected: false, skipped: 0 });
    expect(p.hedgePolicy!.snapshot()).toMatchObject({ hedges: 1 });
    expect(p.hedgePolicy!.budget!.balance(50)).toBe(before - 10_000);
    expect(p.limitPolicy!.snapshot()).toMatchObject({ rejected: 1, acquired: 1, released: 1, inflight: 0 });
    expect(clock.pending()).toBe(0);
  });

  it('the hedge loser releases its permit without a sample', () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0 }).adaptiveLimit({ windowed: false });
    const s = scripted(clock, (_c, a) => ({ ms: a === 1 ? 50 : 10 }));
    p.compose(s.op)(p.newCall(0), 1, () => {});
    clock.runAll();
    expect(p.limitPolicy!.snapshot()).toMatchObject({
      acquired: 2,
      released: 2,
      samples: 1,
      unsampled: 1,
      inflight: 0,
    });
  });
});
