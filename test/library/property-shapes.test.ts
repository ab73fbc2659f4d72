// Property (fast-check): with random combinations of the new options (percentile delay, budget shapes,
// winner rule, lone-failure rule) over random calls, failures, pushbacks and caller aborts, every call
// ends exactly once, the concurrency cap holds at every hedge start, hedges in flight return to 0, and no
// timer or attempt is left behind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HedgeStepOptions, ManualClock, pipeline } from '../../library/index.ts';

const callArb = fc.record({
  gap: fc.double({ min: 0, max: 30, noNaN: true }),
  lat: fc.array(fc.double({ min: 0, max: 120, noNaN: true }), { minLength: 4, maxLength: 4 }),
  fail: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 4 }),
  pushbackMs: fc.option(fc.double({ min: 0, max: 200, noNaN: true }), { freq: 6 }),
  abortAt: fc.option(fc.double({ min: 0, max: 150, noNaN: true }), { freq: 8 }),
});

const budgetArb = fc.oneof(
  fc.constant(undefined),
  fc.record({ kind: fc.constant('ratio' as const), pushback: fc.boolean() }),
  fc.record({
    kind: fc.constant('concurrency' as const),
    percent: fc.integer({ min: 1, max: 100 }),
    min: fc.integer({ min: 0, max: 3 }),
    pushback: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('tokens' as const),
    maxTokens: fc.integer({ min: 1, max: 20 }),
    tokenRatio: fc.constantFrom(0.1, 0.5, 1),
    pushback: fc.boolean(),
  }),
  fc.constant({ kind: 'pushback' as const }),
);

const configArb = fc.record({
  delayMs: fc.double({ min: 0, max: 60, noNaN: true }),
  maxAttempts: fc.integer({ min: 2, max: 4 }),
  delay: fc.option(
    fc.record({
      percentile: fc.double({ min: 1, max: 99.9, noNaN: true }),
      windowMs: fc.constantFrom(1000, 2000),
      minSamples: fc.integer({ min: 1, max: 20 }),
      until: fc.constantFrom('fixed' as const, 'none' as const),
      combine: fc.constantFrom(undefined, 'min' as const, 'max' as const),
    }),
  ),
  budget: budgetArb,
  firstCompletion: fc.boolean(),
  hedgeNow: fc.boolean(),
});

describe('new hedge options: properties', () => {
  it('every call ends once, the concurrency cap holds, nothing is left behind', () => {
    fc.assert(
      fc.property(configArb, fc.array(callArb, { minLength: 1, maxLength: 40 }), (cfg, calls) => {
        const clock = new ManualClock();
        const options: HedgeStepOptions = {
          delayMs: cfg.delayMs,
          maxAttempts: cfg.maxAttempts,
          budget: cfg.budget,
          winner: cfg.firstCompletion ? 'first-completion' : 'first-success',
        };
        if (cfg.delay !== null) options.delay = cfg.delay;
        if (!cfg.firstCompletion && cfg.hedgeNow) options.loneFailure = 'hedge-now';
        const p = pipeline(clock).hedge(options);
        const hp = p.hedgePolicy!;
        hp.onHedged(() => {
          const cb = hp.concurrency;
          // The hedge about to start was counted: it is within the cap with the calls now in flight.
          if (cb !== undefined) expect(cb.inflight).toBeLessThanOrEqual(cb.limit(hp.c.active));
        });
        let live = 0;
        const run = p.compose<number>((state, attempt, done) => {
          const spec = calls[state.call];
          live++;
          const f = spec.fail[attempt - 1];
          const pushback = spec.pushbackMs === null || attempt > 1 ? {} : { pushbackMs: spec.pushbackMs };
          const timer = clock.setTimer(
            () => {
              live--;
              if (f <= 2) done({ ok: false, error: `e${f}`, ...pushback });
              else done({ ok: true, value: attempt, ...pushback });
            },
            spec.lat[attempt - 1],
          );
          return () => {
            live--;
            timer.cancel();
          };
        });
        const ends = new Array<number>(calls.length).fill(0);
        let t = 0;
        calls.forEach((spec, i) => {
          t += spec.gap;
          clock.setTimer(() => {
            const state = p.newCall(i);
            const cancel = run(state, 1, () => ends[i]++);
            if (spec.abortAt !== null) {
              clock.setTimer(() => {
                if (ends[i] === 0) {
                  ends[i]++;
                  cancel(new Error('caller abort'));
                }
              }, spec.abortAt);
            }
          }, t);
        });
        clock.runAll();
        expect(ends.every((n) => n === 1)).toBe(true);
        expect(clock.pending()).toBe(0);
        expect(live).toBe(0);
        const s = hp.snapshot();
        expect(s.active).toBe(0);
        expect(s.hedgedOnError).toBeLessThanOrEqual(s.hedges);
        expect(s.pushbackSkipped).toBeLessThanOrEqual(s.skipped);
        if (hp.concurrency !== undefined) expect(s.hedgesInFlight).toBe(0);
        if (hp.tokens !== undefined) {
          expect(s.tokens).toBeGreaterThanOrEqual(0);
          expect(s.tokens).toBeLessThanOrEqual(hp.tokens.maxTokens);
        }
      }),
      { numRuns: 200 },
    );
  });
});
