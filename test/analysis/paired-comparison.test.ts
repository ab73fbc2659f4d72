// The differences the verdict judges, on hand-built sides: identical sides give D = 0 exactly, a constant
// shift per call gives that shift, the harness taken out call by call gives back the simulated calls, an
// unsplit call is kept whole and counted, and a foreign service's interval includes both sides' own error.

import { describe, expect, it } from 'vitest';
import type { Attribution } from '../../analysis/judge/attribution.ts';
import { type CallTable, realCallTable, simCallTable } from '../../analysis/judge/call-table.ts';
import { pairedDiffs, unpairedDiffs } from '../../analysis/judge/paired-comparison.ts';
import type { RawAttempts, RawCalls } from '../../analysis/read/raw-files.ts';
import { emptySimCalls, type SimCalls } from '../../contract/index.ts';
import { uniformOpen } from '../../model/index.ts';

const N = 3000;

/** A simulated point of N calls: log-normal-ish latencies with a few stragglers, 1 or 2 attempts. */
function simCalls(seed = 3): SimCalls {
  const c = emptySimCalls(N);
  for (let i = 0; i < N; i++) {
    const u = uniformOpen(seed, 1, i, 0);
    c.call[i] = 300 + i;
    c.latencyMs[i] = u < 0.02 ? 100 + 200 * uniformOpen(seed, 2, i, 0) : 10 * Math.exp(0.25 * (u - 0.5) * 4);
    c.attempts[i] = c.latencyMs[i] > 20 ? 2 : 1;
    c.winner[i] = 1;
    c.busyMs[i] = c.latencyMs[i] * c.attempts[i];
  }
  return c;
}

/** The same calls as a measured side whose every latency is the simulated one plus `shift(i)`. */
function shifted(s: CallTable, shift: (i: number) => number): CallTable {
  return { ...s, latencyMs: Float64Array.from(s.latencyMs, (x, i) => x + shift(i)) };
}

describe('pairedDiffs', () => {
  const sim = simCallTable(simCalls());

  it('identical sides: every difference is 0 with a zero-width interval', () => {
    const d = pairedDiffs(sim, sim, 0.001);
    for (const m of [
      'p50',
      'p99',
      'p99.9',
      'requests_per_call',
      'hedge_rate',
      'utilization',
      'rejected_rate',
    ] as const) {
      expect(d[m], m).toMatchObject({ estimate: 0, low: 0, high: 0 });
    }
  });

  it('a constant shift per call is that shift at every percentile, with a zero-width interval', () => {
    const d = pairedDiffs(
      shifted(sim, () => 0.25),
      sim,
      0.001,
    );
    for (const m of ['p50', 'p99', 'p99.9'] as const) {
      expect(d[m]!.estimate, m).toBeCloseTo(0.25, 9);
      expect(d[m]!.low, m).toBeCloseTo(0.25, 9);
      expect(d[m]!.high, m).toBeCloseTo(0.25, 9);
    }
    expect(d.requests_per_call).toMatchObject({ estimate: 0, low: 0, high: 0 });
  });

  it('noise of ±0.1 ms per call gives an interval about the true shift far narrower than the sides’ own', () => {
    const d = pairedDiffs(
      shifted(sim, (i) => 0.5 + 0.1 * (2 * uniformOpen(9, 1, i, 0) - 1)),
      sim,
      0.001,
    );
    expect(d.p50!.low).toBeGreaterThan(0.35);
    expect(d.p50!.high).toBeLessThan(0.65);
    expect(d.p99!.high - d.p99!.low).toBeLessThan(0.5);
  });

  it('a rate off by a few calls shows as that rate difference', () => {
    const real = { ...sim, attempts: Float64Array.from(sim.attempts, (a, i) => (i % 100 === 0 ? 3 : a)) };
    const d = pairedDiffs(real, sim, 0.001);
    expect(d.requests_per_call!.estimate).toBeGreaterThan(0.005);
    expect(d.requests_per_call!.low).toBeGreaterThan(0);
  });
});

describe('realCallTable: the harness taken out call by call', () => {
  const s = simCalls();
  const n = 4;
  const calls: RawCalls = {
    n,
    call: Float64Array.from([300, 301, 302, 303]),
    intendedMs: Float64Array.from([0, 10, 20, 30]),
    sendLagMs: new Float64Array(n).fill(0.1),
    latencyMs: Float64Array.from([0, 1, 2, 3], (i) => s.latencyMs[i] + 0.6),
    outcome: Uint8Array.from([0, 0, 0, 1]),
    attempts: Float64Array.from([1, 1, 1, 1]),
    skipped: new Float64Array(n),
    winner: Float64Array.from([1, 1, 1, 0]),
    winnerWrittenMs: new Float64Array(n),
  };

  it('an attributed call whose parts add up to its latency gives real′ = its simulated latency', () => {
    // The attribution splits calls 300 and 301; 302 has no server record of its winner.
    const attribution = {
      n: 2,
      call: Float64Array.from([300, 301]),
      withoutHarness: Float64Array.from([s.latencyMs[0], s.latencyMs[1]]),
    } as unknown as Attribution;
    const t = realCallTable(calls, null, attribution, true);
    expect(t.latencyMs[0]).toBe(s.latencyMs[0]);
    expect(t.latencyMs[1]).toBe(s.latencyMs[1]);
    // Kept whole, and counted: never dropped.
    expect(t.latencyMs[2]).toBeCloseTo(s.latencyMs[2] + 0.6, 9);
    expect(t.unsplit).toBe(1);
    expect(Array.from(t.ok)).toEqual([1, 1, 1, 0]);
    expect(Array.from(t.rejected)).toEqual([0, 0, 0, 1]);
    expect(t.busyMs).toBeNull();
  });

  it('against sim+net the measurement stays whole', () => {
    const t = realCallTable(calls, null, null, false);
    expect(Array.from(t.latencyMs)).toEqual(Array.from(calls.latencyMs));
    expect(t.unsplit).toBe(0);
  });

  it('worker time is the service draw of a served attempt and the time in service of a cancelled one', () => {
    const attempts: RawAttempts = {
      n: 3,
      call: Float64Array.from([300, 300, 301]),
      attempt: Float64Array.from([1, 2, 1]),
      enqueueMs: Float64Array.from([0, 5, 10]),
      startMs: Float64Array.from([0, 5, Number.NaN]),
      endMs: Float64Array.from([10.4, 7, 12]),
      ended: ['served', 'cancelled-in-service', 'cancelled-queued'],
      worker: Float64Array.from([0, 1, -1]),
      serviceMs: Float64Array.from([10, 8, 9]),
      respondedMs: new Float64Array(3),
    };
    const t = realCallTable(calls, attempts, null, true);
    // 10 (the draw, not the 10.4 held) + 2 (in service until the cancel); the queued one held nothing.
    expect(Array.from(t.busyMs!)).toEqual([12, 0, 0, 0]);
  });
});

describe('unpairedDiffs: a foreign service', () => {
  it('two independent samples of one distribution: an interval about 0 as wide as both sides’ error', () => {
    const a = simCallTable(simCalls(3));
    const b = simCallTable(simCalls(4));
    const d = unpairedDiffs(a, b);
    expect(d.p50!.low).toBeLessThan(0);
    expect(d.p50!.high).toBeGreaterThan(0);
    // Far wider than the paired interval of two shifted copies of one sample.
    expect(d.p50!.high - d.p50!.low).toBeGreaterThan(0.05);
    expect(d.requests_per_call!.low).toBeLessThan(d.requests_per_call!.estimate);
  });

  it('an end the samples cannot bound stays open', () => {
    const small = emptySimCalls(100);
    for (let i = 0; i < 100; i++) {
      small.call[i] = i;
      small.latencyMs[i] = 10 + i / 100;
      small.attempts[i] = 1;
    }
    const d = unpairedDiffs(simCallTable(small), simCallTable(small));
    expect(d['p99.9']!.high).toBe(Number.POSITIVE_INFINITY);
    expect(d['p99.9']!.low).toBe(Number.NEGATIVE_INFINITY);
  });
});
