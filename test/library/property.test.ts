// Property (fast-check): for random call/latency/failure sequences, hedges never exceed the budget bound in
// any window, every call ends exactly once, every permit is released and no timer is left.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveLimitFullError,
  BUDGET_DEPOSIT,
  type CallState,
  ManualClock,
  pipeline,
} from '../../library/index.ts';

const callArb = fc.record({
  gap: fc.double({ min: 0, max: 400, noNaN: true }),
  lat: fc.array(fc.double({ min: 0, max: 300, noNaN: true }), { minLength: 4, maxLength: 4 }),
  fail: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 4 }),
  abortAt: fc.option(fc.double({ min: 0, max: 200, noNaN: true }), { freq: 8 }),
});

const configArb = fc.record({
  percent: fc.integer({ min: 1, max: 100 }),
  minPerSecond: fc.integer({ min: 0, max: 3 }),
  windowMs: fc.integer({ min: 1000, max: 20_000 }),
  delayMs: fc.double({ min: 0, max: 60, noNaN: true }),
  maxAttempts: fc.integer({ min: 2, max: 4 }),
  limit: fc.integer({ min: 1, max: 8 }),
  windowed: fc.boolean(),
  hedgeOnBusy: fc.boolean(),
});

describe('hedge + adaptive limit properties', () => {
  it('respects the budget bound in every window and releases every permit', () => {
    fc.assert(
      fc.property(configArb, fc.array(callArb, { minLength: 1, maxLength: 60 }), (cfg, calls) => {
        const clock = new ManualClock();
        const p = pipeline(clock)
          .hedge({
            delayMs: cfg.delayMs,
            maxAttempts: cfg.maxAttempts,
            budgetPercent: cfg.percent,
            budgetMinHedgesPerSecond: cfg.minPerSecond,
            budgetWindowMs: cfg.windowMs,
            hedgeOn: cfg.hedgeOnBusy ? (e) => e === 'busy' : undefined,
          })
          .adaptiveLimit({
            initialLimit: cfg.limit,
            minLimit: 1,
            maxLimit: 50,
            windowed: cfg.windowed,
            windowMs: 300,
          });
        const hp = p.hedgePolicy!;
        const budget = hp.budget!;
        const slotMs = cfg.windowMs / 10;
        const deposits: number[] = [];
        const hedges: number[] = [];
        hp.onHedged(() => hedges.push(clock.now()));
        let live = 0;
        const run = p.compose<number>((state, attempt, done) => {
          const spec = calls[state.call];
          live++;
          const f = spec.fail[attempt - 1];
          const timer = clock.setTimer(
            () => {
              live--;
              if (f === 0) done({ ok: false, error: 'busy' });
              else if (f === 1) done({ ok: false, error: 'other' });
              else done({ ok: true, value: attempt });
            },
            spec.lat[attempt - 1],
          );
          return () => {
            live--;
            timer.cancel();
          };
        });
        const ends = new Array<number>(calls.length).fill(0);
        const states: CallState[] = [];
        let t = 0;
        calls.forEach((spec, i) => {
          t += spec.gap;
          clock.setTimer(() => {
            deposits.push(clock.now());
            const state = p.newCall(i);
            states[i] = state;
            const cancel = run(state, 1, (o) => {
              ends[i]++;
              if (state.rejected) expect(!o.ok && o.error instanceof AdaptiveLimitFullError).toBe(true);
            });
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
        const lim = p.limitPolicy!.snapshot();
        expect(lim.inflight).toBe(0);
        expect(lim.acquired).toBe(lim.released);
        expect(hp.snapshot().active).toBe(0);
        // Budget bound: in the live window of each hedge (its slot and the 9 before), hedges × cost never
        // exceed deposits × 1000 + reserve.
        const slot = (x: number) => Math.floor(x / slotMs);
        for (const h of hedges) {
          const e = slot(h);
          const inWindow = (x: number) => slot(x) > e - 10 && slot(x) <= e && x <= h;
          const w = hedges.filter(inWindow).length;
          const d = deposits.filter(inWindow).length;
          expect(w * budget.cost).toBeLessThanOrEqual(d * BUDGET_DEPOSIT + budget.reserve);
        }
        for (const s of states) {
          expect(s.winner).toBeLessThanOrEqual(s.attempts);
          expect(s.attempts).toBeLessThanOrEqual(cfg.maxAttempts);
          expect(s.skipped + s.limited).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });
});
