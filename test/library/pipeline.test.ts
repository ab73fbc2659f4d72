// Pipeline: composition order and the Promise facade execute() on a ManualClock — abort signals reach
// the losers, a caller abort cancels everything with its reason, and no timer or listener is left.
import { describe, expect, it } from 'vitest';
import {
  AdaptiveLimitPolicy,
  CancelledError,
  HedgePolicy,
  ManualClock,
  type Operation,
  type Policy,
  pipeline,
} from '../../library/index.ts';

/** An attempt function answering after `ms(attempt)` on the clock, honouring its signal. */
function sleeper(clock: ManualClock, ms: (attempt: number) => number, aborted: Map<number, unknown>) {
  return ({ signal, attempt }: { signal: AbortSignal; attempt: number }) =>
    new Promise<string>((resolve, reject) => {
      const timer = clock.setTimer(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(`a${attempt}`);
      }, ms(attempt));
      function onAbort() {
        timer.cancel();
        aborted.set(attempt, signal.reason);
        reject(signal.reason);
      }
      signal.addEventListener('abort', onAbort, { once: true });
    });
}

/** A real AbortSignal whose listener count we can read (to prove execute() removes its listener). */
function countedSignal(controller: AbortController) {
  const signal = controller.signal;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners--;
    remove(...args);
  }) as typeof signal.removeEventListener;
  return { signal, listeners: () => listeners };
}

describe('Pipeline composition', () => {
  it('first policy added is outermost, and the builder is the pipeline', () => {
    const clock = new ManualClock();
    const order: string[] = [];
    const tag = (name: string): Policy => ({
      wrap:
        <T>(inner: Operation<T>): Operation<T> =>
        (call, attempt, done) => {
          order.push(name);
          return inner(call, attempt, done);
        },
    });
    const p = pipeline(clock).use(tag('outer')).use(tag('inner'));
    p.compose<number>((_s, _a, done) => {
      order.push('op');
      done({ ok: true, value: 1 });
      return () => {};
    })(p.newCall(0), 1, () => {});
    expect(order).toEqual(['outer', 'inner', 'op']);
    const h = pipeline(clock).hedge({ delayMs: 20 }).adaptiveLimit();
    expect(h.hedgePolicy).toBeInstanceOf(HedgePolicy);
    expect(h.limitPolicy).toBeInstanceOf(AdaptiveLimitPolicy);
    expect(h.steps).toEqual([h.hedgePolicy, h.limitPolicy]);
    expect(h.clock).toBe(clock);
  });

  it('a plain pipeline records attempts and winner', async () => {
    const clock = new ManualClock();
    const p = pipeline(clock);
    const state = p.newCall(7);
    const result = p.execute(async ({ call, attempt }) => `${call}/${attempt}`, { state });
    await clock.settle();
    await expect(result).resolves.toBe('7/1');
    expect(state).toMatchObject({ attempts: 1, winner: 1, skipped: 0, rejected: false });
  });
});

describe('Pipeline.execute (Promise facade)', () => {
  it('hedges, resolves with the winner, aborts the loser through its signal, leaves nothing behind', async () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0 }).adaptiveLimit();
    const aborted = new Map<number, unknown>();
    const controller = new AbortController();
    const counted = countedSignal(controller);
    const state = p.newCall(0);
    const result = p.execute(
      sleeper(clock, (a) => (a === 1 ? 50 : 10), aborted),
      { signal: counted.signal, state },
    );
    expect(counted.listeners()).toBe(1);
    await clock.advanceAsync(29.9);
    expect(aborted.size).toBe(0);
    await clock.advanceAsync(0.1);
    await expect(result).resolves.toBe('a2');
    expect(clock.now()).toBe(30);
    expect([...aborted.keys()]).toEqual([1]);
    expect(aborted.get(1)).toBeInstanceOf(CancelledError);
    expect(state).toMatchObject({ attempts: 2, winner: 2 });
    expect(counted.listeners()).toBe(0);
    expect(clock.pending()).toBe(0);
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 0, acquired: 2, released: 2 });
  });

  it('a caller abort cancels every attempt with the caller reason and rejects with it', async () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0 }).adaptiveLimit();
    const aborted = new Map<number, unknown>();
    const controller = new AbortController();
    const counted = countedSignal(controller);
    const result = p.execute(
      sleeper(clock, () => 100, aborted),
      { signal: counted.signal },
    );
    const settled = result.catch((e: unknown) => e);
    await clock.advanceAsync(25);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    expect(await settled).toBe(reason);
    await clock.settle();
    expect(aborted.get(1)).toBe(reason);
    expect(aborted.get(2)).toBe(reason);
    expect(counted.listeners()).toBe(0);
    expect(clock.pending()).toBe(0);
    expect(p.limitPolicy!.snapshot()).toMatchObject({ inflight: 0, released: 2, samples: 0 });
    expect(p.hedgePolicy!.snapshot()).toMatchObject({ cancelled: 1, active: 0 });
  });

  it('an already aborted signal rejects without starting an attempt', async () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20 });
    let started = 0;
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(
      p.execute(
        async () => {
          started++;
          return 1;
        },
        { signal: controller.signal },
      ),
    ).rejects.toThrow('too late');
    expect(started).toBe(0);
  });

  it('an attempt function that throws synchronously is a failed attempt', async () => {
    const clock = new ManualClock();
    const p = pipeline(clock).hedge({ delayMs: 20, budgetPercent: 0, hedgeOn: () => true });
    const result = p.execute(({ attempt }) => {
      if (attempt === 1) throw new Error('sync boom');
      return Promise.resolve('second');
    });
    await clock.settle();
    await expect(result).resolves.toBe('second');
    expect(clock.pending()).toBe(0);
  });
});
