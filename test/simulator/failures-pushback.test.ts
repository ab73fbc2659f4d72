// The simulator with the model's failures and pushback: errorProb 0 (and every new field absent) gives
// today's rows byte for byte; a failing attempt holds errorMs and answers an error, so unhedged calls fail
// exactly as often as attempt 1 is drawn to fail; first-completion returns the fast error that first-success
// outwaits; a response leaving a long queue stops the hedges of a budget that honours pushback, and only
// of such a budget; `hedged_on_error_rate` counts the hedges a failure started, in files that need it.
import { describe, expect, it } from 'vitest';
import {
  type AttemptRecord,
  formatPointsCsv,
  formatSimCallsCsv,
  type PointRow,
} from '../../contract/index.ts';
import {
  type CallState,
  type HedgeBudgetShape,
  ManualClock,
  type Outcome,
  pipeline,
} from '../../library/index.ts';
import {
  ArrivalSchedule,
  attemptFails,
  DEFAULT_MODEL,
  expandMatrix,
  type HedgeConfig,
  type ModelParams,
  type Point,
  parseMatrix,
  WorkerPool,
  warmupCalls,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { SimTransport } from '../../simulator/sim-transport.ts';

const matrix = (
  model: object,
  configs: unknown[] = ['no hedge', 'hedge, default budget', '3 attempts, no budget'],
) =>
  parseMatrix({
    name: 'm',
    configs,
    loads: [0.5, 0.9],
    cancellation: ['ignore', 'propagate'],
    seeds: [3],
    calls: 3000,
    model,
  });

const simulate = (points: Point[]) => {
  const results = points.map((p) => runPoint(p, { callRecords: true }));
  return {
    csv: formatPointsCsv(results.map((r) => r.row)),
    calls: results.map((r) => formatSimCallsCsv(r.calls!)).join('\n'),
  };
};

describe('errorProb 0 is today', () => {
  it('gives the rows and the simulated calls of a model without the field, byte for byte', () => {
    const today = simulate(expandMatrix(matrix({})));
    const zero = simulate(expandMatrix(matrix({ errorProb: 0 })));
    expect(zero.csv).toBe(today.csv);
    expect(zero.calls).toBe(today.calls);
    // And the points.csv of such a matrix has no new column.
    expect(today.csv.split('\n')[0]).not.toContain('hedged_on_error_rate');
  });
});

const failing: ModelParams = { ...DEFAULT_MODEL, errorProb: 0.05, errorMs: 1 };
const point = (config: HedgeConfig, model: ModelParams, load = 0.3, calls = 20_000): Point => ({
  config,
  load,
  cancellation: 'propagate',
  seed: 5,
  calls,
  warmupFraction: 0.1,
  model,
});

describe('failures in the model', () => {
  it('fail an unhedged call exactly when its attempt is drawn to fail; the failing attempt holds errorMs', () => {
    const records: AttemptRecord[] = [];
    const p = point({ name: 'no hedge' }, failing);
    const r = runPoint(p, { onAttempt: (a) => records.push(a) });
    const warm = warmupCalls(p);
    let drawn = 0;
    for (let call = warm; call < p.calls; call++) if (attemptFails(failing, 5, call, 1)) drawn++;
    expect(r.row.failed_rate).toBeCloseTo(drawn / (p.calls - warm), 12);
    expect(r.row.failed_rate!).toBeGreaterThan(0.04);
    expect(r.row.failed_rate!).toBeLessThan(0.06);
    const failed = records.filter((a) => a.ended === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const a of failed) {
      expect(a.serviceMs).toBe(1);
      expect(a.endMs - a.startMs).toBeCloseTo(1, 9);
      expect(attemptFails(failing, 5, a.call, a.attempt)).toBe(true);
    }
    // An unhedged configuration has no hedges to tell apart: no hedged_on_error_rate.
    expect(r.row.hedged_on_error_rate).toBeUndefined();
  });

  it('first-completion returns the fast error that first-success outwaits', () => {
    const cfg = (winner: 'first-success' | 'first-completion'): HedgeConfig => ({
      name: winner,
      hedge: { delayMs: 20, budgetPercent: 0, winner },
    });
    const byCall = (config: HedgeConfig) => {
      const calls = new Map<number, { state: CallState; latency: number }>();
      const r = runPoint(point(config, failing), {
        onCall: (state, latency) => calls.set(state.call, { state: { ...state }, latency }),
      });
      return { row: r.row, calls };
    };
    const fs = byCall(cfg('first-success'));
    const fc = byCall(cfg('first-completion'));
    // The rows differ the expected way: first-completion fails about errorProb of its calls, first-success
    // only those whose every attempt failed; first-completion sends fewer hedges (the error ended the call).
    expect(fc.row.failed_rate!).toBeGreaterThan(0.04);
    expect(fs.row.failed_rate!).toBeLessThan(0.01);
    expect(fc.row.requests_per_call!).toBeLessThan(fs.row.requests_per_call!);
    // Call by call: where attempt 1 failed and attempt 2 did not, first-completion answered the error within
    // a few ms, first-success the hedge's success after its 20 ms delay.
    let seen = 0;
    for (const [call, c] of fc.calls) {
      if (!attemptFails(failing, 5, call, 1) || attemptFails(failing, 5, call, 2)) continue;
      const s = fs.calls.get(call)!;
      expect(c.state.winner).toBe(0);
      expect(c.latency).toBeLessThan(20);
      expect(s.state.winner).toBe(2);
      expect(s.latency).toBeGreaterThanOrEqual(20);
      seen++;
    }
    expect(seen).toBeGreaterThan(500);
  });

  it("counts the hedges a failure started (loneFailure 'hedge-now') in hedged_on_error_rate", () => {
    const calls: CallState[] = [];
    const r = runPoint(
      point({ name: 'now', hedge: { delayMs: 20, budgetPercent: 0, loneFailure: 'hedge-now' } }, failing),
      {
        onCall: (s) => calls.push({ ...s }),
      },
    );
    const onError = calls.filter((s) => s.hedgedOnError > 0).length;
    expect(r.row.hedged_on_error_rate).toBeCloseTo(onError / calls.length, 12);
    // Every call whose first attempt failed before the timer hedged at once.
    expect(r.row.hedged_on_error_rate!).toBeGreaterThan(0.04);
    expect(r.row.hedged_on_error_rate!).toBeLessThan(r.row.hedge_rate!);
    const csv = formatPointsCsv([r.row, runPoint(point({ name: 'no hedge' }, failing)).row]);
    const [header, withCount, without] = csv.split('\n');
    expect(header).toMatch(/,valid,hedged_on_error_rate$/);
    expect(withCount).toMatch(/,true,0\.0\d{4}$/);
    expect(without).toMatch(/,true,$/);
  });

  it("lets gRPC A6's non-fatal codes see the model's failure as UNAVAILABLE", () => {
    const a6 = (codes: string[]): HedgeConfig => ({
      name: `a6 ${codes.join()}`,
      grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20, nonFatalStatusCodes: codes },
    });
    const fatal = runPoint(point(a6([]), failing)).row;
    const nonFatal = runPoint(point(a6(['UNAVAILABLE']), failing)).row;
    // Non-fatal: a failure sends the next attempt at once and the call mostly succeeds; fatal: it ends the call.
    expect(fatal.failed_rate!).toBeGreaterThan(0.04);
    expect(nonFatal.failed_rate!).toBeLessThan(0.01);
  });
});

describe('pushback', () => {
  // One worker, every service 10 ms, hedges 5 ms after the last start with no budget but the server's:
  // a response that leaves more than 0 attempts waiting asks for 30 ms without hedges.
  const model: ModelParams = {
    ...DEFAULT_MODEL,
    workers: 1,
    service: { kind: 'constant', ms: 10 },
    pushback: { queueAbove: 0, ms: 30 },
  };

  it('stops the hedges of a budget that honours it while the queue is long, and lets them go after', () => {
    const clock = new ManualClock();
    const pool = new WorkerPool(clock, { workers: 1, cancellation: 'propagate' });
    const outcomes: Outcome<void>[] = [];
    const t = new SimTransport([pool], model, 1, 0);
    const op = (s: CallState, a: number, done: (o: Outcome<void>) => void) =>
      t.op(s, a, (o) => {
        outcomes.push(o);
        done(o);
      });
    const p = pipeline(clock).hedge({ delayMs: 5, budget: { kind: 'pushback' } });
    const run = p.compose(op);
    const states: CallState[] = [];
    for (const [call, at] of [
      [0, 0],
      [1, 1],
      [2, 12],
      [3, 50],
    ]) {
      clock.schedule(() => {
        const s = p.newCall(call);
        states[call] = s;
        run(s, 1, () => {});
      }, at);
    }
    clock.runAll();
    // 0 and 1 hedged before any response; at t = 10 call 0's answer left two attempts waiting: pushback until
    // 40, so call 2's hedge at 17 was refused; call 3 came after it, hedged at 55 (no queue at its answer).
    expect(states.map((s) => [s.attempts, s.skipped])).toEqual([
      [2, 0],
      [2, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(outcomes[0]).toEqual({ ok: true, value: undefined, pushbackMs: 30 });
    expect(outcomes.at(-1)).toEqual({ ok: true, value: undefined });
    expect(p.hedgePolicy!.snapshot().pushbackSkipped).toBe(1);
  });

  it('moves only a budget that honours it: others run exactly as without the rule', () => {
    const cfg = (budget?: HedgeBudgetShape): HedgeConfig => ({
      name: 'h',
      hedge: { delayMs: 10, budgetPercent: 0, ...(budget ? { budget } : {}) },
    });
    const busy = { ...DEFAULT_MODEL, pushback: { queueAbove: 4, ms: 50 } };
    const rows = (config: HedgeConfig, m: ModelParams): PointRow =>
      runPoint(point(config, m, 0.85, 10_000)).row;
    const plain = rows(cfg(), DEFAULT_MODEL);
    expect(rows(cfg(), busy)).toEqual(plain);
    const honours = rows(cfg({ kind: 'ratio', pushback: true }), busy);
    expect(honours.requests_per_call!).toBeLessThan(plain.requests_per_call!);
    expect(honours.skipped_rate!).toBeGreaterThan(0);
    expect(plain.skipped_rate).toBe(0);
    const schedule = ArrivalSchedule.forPoint(point(cfg(), busy, 0.85, 10_000));
    expect(schedule.at(100)).toBe(
      ArrivalSchedule.forPoint(point(cfg(), DEFAULT_MODEL, 0.85, 10_000)).at(100),
    );
  });
});
