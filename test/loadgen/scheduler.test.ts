// The open-loop scheduler on a ManualClock (deterministic) and on the real SystemClock (never early,
// in order, bounded), plus the Poisson statistics of the schedule it is fed.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../library/index.ts';
import { AD_CRITICAL_CASE0, andersonDarlingExponential } from '../../loadgen/anderson-darling.ts';
import { createScheduler, type SchedulerEnd } from '../../loadgen/scheduler.ts';
import { ArrivalSchedule, arrivalRatePerMs, DEFAULT_MODEL } from '../../model/index.ts';
import { SystemClock } from '../../runtime/index.ts';

function times(seed: number, ratePerMs: number, n: number): Float64Array {
  const s = new ArrivalSchedule(seed, ratePerMs, n);
  return Float64Array.from({ length: n }, (_, i) => s.at(i));
}

describe('the Poisson schedule the generator follows', () => {
  it('has the target mean rate and exponential gaps (Anderson–Darling, rate known)', () => {
    const rate = arrivalRatePerMs(0.95, DEFAULT_MODEL); // the reference study's heaviest load, ~1.08/ms
    for (const seed of [1, 2, 3]) {
      const n = 50_000;
      const t = times(seed, rate, n);
      const achieved = (n - 1) / (t[n - 1] - t[0]);
      expect(Math.abs(achieved / rate - 1)).toBeLessThan(3 / Math.sqrt(n));
      const gaps = Float64Array.from({ length: 2000 }, (_, k) => t[k * 20 + 1] - t[k * 20]);
      expect(andersonDarlingExponential(gaps, rate)).toBeLessThan(2 * AD_CRITICAL_CASE0['0.01']);
      // Coefficient of variation of exponential gaps is 1 (evenly spaced arrivals would give 0).
      const all = Float64Array.from({ length: n - 1 }, (_, i) => t[i + 1] - t[i]);
      const mean = all.reduce((a, b) => a + b, 0) / all.length;
      const sd = Math.sqrt(all.reduce((a, b) => a + (b - mean) ** 2, 0) / all.length);
      expect(sd / mean).toBeGreaterThan(0.97);
      expect(sd / mean).toBeLessThan(1.03);
    }
  });
});

describe('createScheduler on a ManualClock', () => {
  it('sends every call exactly at its intended time, in order, then ends with done', () => {
    const clock = new ManualClock();
    const intended = times(1, 0.5, 500);
    const sentAt: number[] = [];
    const order: number[] = [];
    let ended: SchedulerEnd | null = null;
    const s = createScheduler({
      clock,
      intendedMs: intended,
      t0: 10,
      maxMs: 1e9,
      send: (i, now) => {
        order.push(i);
        sentAt.push(now - 10);
      },
      onEnd: (r) => {
        ended = r;
      },
    });
    s.start();
    clock.runAll();
    expect(ended).toBe('done');
    expect(order).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(sentAt.length).toBe(500);
    for (let i = 0; i < 500; i++) expect(sentAt[i]).toBeCloseTo(intended[i], 9);
    expect(s.sent).toBe(500);
  });

  it('keeps the schedule whatever the sends do: a send that takes 50 ms of clock is followed by a catch-up burst', () => {
    const clock = new ManualClock();
    const intended = Float64Array.from([1, 2, 3, 60, 61, 62, 200]);
    const sentAt: number[] = [];
    const s = createScheduler({
      clock,
      intendedMs: intended,
      t0: 0,
      maxMs: 1e9,
      send: (i, now) => {
        sentAt.push(now);
        // Call 0 "blocks" the loop for 100 ms (the clock moves on while it runs).
        if (i === 0) clock.advance(100);
      },
      onEnd: () => {},
    });
    s.start();
    clock.runAll();
    // Calls 1..5 were all due by t=101: sent at once, none skipped, none rescheduled.
    expect(sentAt).toEqual([1, 101, 101, 101, 101, 101, 200]);
  });

  it('stops on stop() and on the wall-time bound, and reports why', () => {
    const clock = new ManualClock();
    const intended = Float64Array.from({ length: 100 }, (_, i) => i * 10);
    const ends: SchedulerEnd[] = [];
    let sent = 0;
    const s = createScheduler({
      clock,
      intendedMs: intended,
      t0: 0,
      maxMs: 255,
      send: () => sent++,
      onEnd: (r) => ends.push(r),
    });
    s.start();
    clock.runAll();
    expect(ends).toEqual(['time']);
    expect(sent).toBe(26); // 0, 10, …, 250
    expect(clock.pending()).toBe(0);

    const c2 = new ManualClock();
    const ends2: SchedulerEnd[] = [];
    let sent2 = 0;
    const s2 = createScheduler({
      clock: c2,
      intendedMs: intended,
      t0: 0,
      maxMs: 1e9,
      send: () => sent2++,
      onEnd: (r) => ends2.push(r),
    });
    s2.start();
    c2.runUntil(45);
    s2.stop();
    s2.stop();
    c2.runAll();
    expect(sent2).toBe(5);
    expect(ends2).toEqual(['stopped']);
    expect(c2.pending()).toBe(0);
  });
});

describe('createScheduler on the SystemClock', () => {
  it('never sends a call before its intended time, sends all of them in order, and leaves no timer behind', async () => {
    const clock = new SystemClock();
    const intended = times(5, 2, 400); // ~200 ms of arrivals at 2000/s
    const lags: number[] = [];
    const order: number[] = [];
    const t0 = clock.now() + 2;
    await new Promise<void>((resolve) => {
      createScheduler({
        clock,
        intendedMs: intended,
        t0,
        maxMs: 30_000,
        send: (i, now) => {
          order.push(i);
          lags.push(clock.now() - t0 - intended[i]);
          expect(now).toBeLessThanOrEqual(clock.now());
        },
        onEnd: () => resolve(),
      }).start();
    });
    expect(order).toEqual(Array.from({ length: 400 }, (_, i) => i));
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(-1e-6);
    expect(clock.stats().pending).toBe(0);
  });
});
