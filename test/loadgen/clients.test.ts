// One of K load generators sharing a point (`--client i --clients K`): which calls it sends (i mod K), at
// the point's own intended times, through its own pipeline; its self-check judges its own sends against
// every K-th arrival of the point's Poisson stream; bad indices are refused naming the flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../contract/index.ts';
import { ManualClock } from '../../library/index.ts';
import { AD_CRITICAL_CASE0, andersonDarlingErlang } from '../../loadgen/anderson-darling.ts';
import { LoadgenConfigError } from '../../loadgen/errors.ts';
import { selfCheck } from '../../loadgen/index.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import { createScheduler } from '../../loadgen/scheduler.ts';
import { ArrivalSchedule, clientOfCall, type ModelParams, referenceConfig } from '../../model/index.ts';
import { startWorkServer, type WorkServer } from './work-server.ts';

const MODEL: Partial<ModelParams> = { workers: 2, service: { kind: 'constant', ms: 10 } };

function times(seed: number, ratePerMs: number, n: number): Float64Array {
  const s = new ArrivalSchedule(seed, ratePerMs, n);
  return Float64Array.from({ length: n }, (_, i) => s.at(i));
}

describe('the split of a schedule across K clients', () => {
  it('sends exactly the calls i ≡ client (mod K), each at its own intended time; the K clients cover every call once', () => {
    const intended = times(3, 0.5, 301);
    const K = 3;
    const seen = new Map<number, number>();
    for (let client = 0; client < K; client++) {
      const clock = new ManualClock();
      const sent: number[] = [];
      let ended = '';
      const s = createScheduler({
        clock,
        intendedMs: intended,
        t0: 0,
        maxMs: 1e9,
        first: client,
        step: K,
        send: (i, now) => {
          sent.push(i);
          expect(now).toBeCloseTo(intended[i], 9);
          seen.set(i, (seen.get(i) ?? 0) + 1);
        },
        onEnd: (r) => {
          ended = r;
        },
      });
      s.start();
      clock.runAll();
      expect(ended).toBe('done');
      expect(sent.every((i) => clientOfCall(i, K) === client)).toBe(true);
      expect(sent.length).toBe(client === 0 ? 101 : 100);
      expect(s.sent).toBe(sent.length);
      expect(s.next).toBeGreaterThanOrEqual(301);
    }
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 301 }, (_, i) => i));
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('self-checks one client’s sends against Erlang(K) gaps at the point’s rate / K', () => {
    const rate = 2;
    const all = times(7, rate, 40_000);
    const K = 4;
    const mine = all.filter((_, i) => clientOfCall(i, K) === 1);
    const sends = mine.map((t) => t + 0.01);
    const r = selfCheck(sends, mine, rate, { clients: K });
    expect(r.reasons).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.rate.targetPerS).toBeCloseTo((rate / K) * 1000, 9);
    expect(r.arrivals.test).toMatch(/Erlang\(4/);
    // The same sends judged as if they were the whole Poisson stream fail: wrong rate, not exponential.
    const asOne = selfCheck(sends, mine, rate);
    expect(asOne.valid).toBe(false);
    expect(asOne.arrivals.passed).toBe(false);
    // Erlang(1) is the exponential; Erlang(K) rejects exponential gaps of the same mean.
    const gaps = Float64Array.from({ length: 1000 }, (_, k) => all[k + 1] - all[k]);
    expect(andersonDarlingErlang(gaps, 1, rate)).toBeLessThan(2 * AD_CRITICAL_CASE0['0.01']);
    const slowGaps = gaps.map((g) => g * K);
    expect(andersonDarlingErlang(slowGaps, K, rate)).toBeGreaterThan(2 * AD_CRITICAL_CASE0['0.01']);
  });
});

describe('one load generator of K against a real HTTP server', () => {
  let srv: WorkServer;
  beforeAll(async () => {
    srv = await startWorkServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  it('sends and records only its own calls, at the same intended times as the whole point', async () => {
    const run = async (client: number, clients: number) => {
      const records: CallRecord[] = [];
      const g = createLoadGenerator({
        target: srv.url,
        config: referenceConfig('hedge, default budget')!,
        load: 0.5,
        calls: 240,
        seed: 5,
        warmupFraction: 0.1,
        model: MODEL,
        warmRequests: 0,
        clockSamples: 0,
        client,
        clients,
        onCall: (r) => records.push(r),
      });
      const result = await g.run();
      return { result, records: records.sort((a, b) => a.call - b.call) };
    };
    srv.reset();
    const whole = await run(0, 1);
    srv.reset();
    const one = await run(1, 2);
    const served = srv.arrivals.filter((a) => a.attempt === 1).map((a) => a.call);
    expect(served.every((c) => c % 2 === 1)).toBe(true);
    expect(one.result.state).toBe('done');
    expect(one.result.client).toBe(1);
    expect(one.result.clients).toBe(2);
    expect(whole.result.client).toBeUndefined();
    // Measured calls: 24..239, the odd ones; intended times are the whole point's.
    expect(one.records.map((r) => r.call)).toEqual(
      whole.records.map((r) => r.call).filter((c) => c % 2 === 1),
    );
    const intendedOf = new Map(whole.records.map((r) => [r.call, r.intendedMs]));
    for (const r of one.records) expect(r.intendedMs).toBe(intendedOf.get(r.call));
    expect(one.result.selfCheck.sendLag.n).toBe(108);
    expect(one.result.sent).toBe(120);
  });

  it('refuses a client index outside 0..K−1 and a client count outside 1..64, naming the flag', () => {
    const base = { target: srv.url, config: referenceConfig('no hedge')!, load: 0.5, calls: 10, seed: 1 };
    expect(() => createLoadGenerator({ ...base, client: 2, clients: 2 })).toThrow(LoadgenConfigError);
    expect(() => createLoadGenerator({ ...base, client: 2, clients: 2 })).toThrow(/--client = 2 is invalid/);
    expect(() => createLoadGenerator({ ...base, clients: 0 })).toThrow(/--clients = 0 is invalid/);
    expect(() => createLoadGenerator({ ...base, clients: 65 })).toThrow(/--clients = 65 is invalid/);
    expect(() => createLoadGenerator({ ...base, client: -1, clients: 2 })).toThrow(/--client = -1/);
  });
});
