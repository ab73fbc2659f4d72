// The simulator with a network (model/transport-delays.ts): a constant delay d on every trip shifts each call by
// exactly 2d at light load (the random numbers are shared, so the check is per call), draws are
// deterministic, the default is untouched, and bad transports are refused before any work.
import { describe, expect, it } from 'vitest';
import {
  constantTransport,
  DEFAULT_MODEL,
  empiricalDelay,
  type Point,
  referenceConfig,
  TransportInvalidError,
  type TransportParams,
  TransportSamplesError,
  transportDelayMs,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';

function point(config: string, load: number, over: Partial<Point> = {}): Point {
  return {
    config: referenceConfig(config)!,
    load,
    cancellation: 'ignore',
    seed: 1,
    calls: 4000,
    warmupFraction: 0.1,
    model: DEFAULT_MODEL,
    ...over,
  };
}

/** Every measured call's latency by call index. */
function latencies(p: Point, transport?: TransportParams): { byCall: Map<number, number>; row: unknown } {
  const byCall = new Map<number, number>();
  const r = runPoint(p, { transport, onCall: (state, ms) => byCall.set(state.call, ms) });
  return { byCall, row: r.row };
}

// Float sums (t + d + wait + service + d vs t + wait + service): equal up to a few ulps of ~1e5 ms.
const FLOAT_TOLERANCE_MS = 1e-9;

describe('constant delay d: sim+net = sim shifted by 2d', () => {
  const d = 1.5;

  it('no hedge: every call takes exactly 2d more, at light and at high load (the server sees the same queue, shifted)', () => {
    for (const load of [0.1, 0.9]) {
      const p = point('no hedge', load);
      const sim = latencies(p);
      const net = latencies(p, constantTransport(d));
      expect(net.byCall.size).toBe(sim.byCall.size);
      expect(sim.byCall.size).toBe(3600);
      for (const [call, ms] of sim.byCall) {
        expect(Math.abs(net.byCall.get(call)! - (ms + 2 * d)), `call ${call} at ${load}`).toBeLessThan(
          FLOAT_TOLERANCE_MS,
        );
      }
    }
  });

  it('hedged, light load: every call neither side hedged is shifted by exactly 2d; the row says sim+net', () => {
    const p = point('hedge, default budget', 0.1);
    const sim = latencies(p);
    const net = latencies(p, constantTransport(d));
    const hedgeDelay = 20;
    let compared = 0;
    for (const [call, ms] of sim.byCall) {
      // Below the hedge delay minus the round trip, neither side launched a hedge for this call.
      if (ms + 2 * d >= hedgeDelay) continue;
      compared++;
      expect(Math.abs(net.byCall.get(call)! - (ms + 2 * d)), `call ${call}`).toBeLessThan(FLOAT_TOLERANCE_MS);
    }
    expect(compared).toBeGreaterThan(3400);
    const row = (net.row as { source: string; p50_ms: number }).source;
    expect(row).toBe('sim+net');
    const simP50 = (sim.row as { p50_ms: number }).p50_ms;
    const netP50 = (net.row as { p50_ms: number }).p50_ms;
    // The histogram keeps 3 significant digits: p50 moves by 2d within 0.1 % of the value.
    expect(Math.abs(netP50 - (simP50 + 2 * d))).toBeLessThan(0.001 * netP50 + 0.01);
  });

  it('a zero-delay constant transport changes no latency', () => {
    const p = point('hedge, default budget', 0.5, { cancellation: 'propagate' });
    const sim = latencies(p);
    const net = latencies(p, constantTransport(0));
    for (const [call, ms] of sim.byCall) expect(net.byCall.get(call)).toBeCloseTo(ms, 9);
  });
});

describe('random transports', () => {
  const samples = Array.from({ length: 200 }, (_, i) => 0.2 + (i % 50) * 0.05);
  const empirical: TransportParams = {
    request: empiricalDelay(samples),
    response: empiricalDelay(samples),
    cancel: { kind: 'lognormal', medianMs: 0.5, sigma: 0.5 },
  };

  it('is deterministic: the same point and transport give the same row and the same calls', () => {
    const p = point('hedge, default budget', 0.7, { cancellation: 'propagate', calls: 3000 });
    const a = latencies(p, empirical);
    const b = latencies(p, empirical);
    expect(a.row).toEqual(b.row);
    expect([...a.byCall]).toEqual([...b.byCall]);
  });

  it('draws each direction from its own stream, from the samples only, the same in any sample order', () => {
    const shuffled: TransportParams = {
      ...empirical,
      request: empiricalDelay([...samples].reverse()),
    };
    const seen = new Set<number>();
    for (let call = 0; call < 500; call++) {
      const r = transportDelayMs(empirical, 'request', 1, call, 1);
      expect(samples).toContain(r);
      expect(transportDelayMs(shuffled, 'request', 1, call, 1)).toBe(r);
      seen.add(r);
    }
    expect(seen.size).toBeGreaterThan(40);
    let same = 0;
    for (let call = 0; call < 500; call++)
      if (
        transportDelayMs(empirical, 'request', 1, call, 1) ===
        transportDelayMs(empirical, 'response', 1, call, 1)
      )
        same++;
    // Independent streams: two draws from the same 50 values coincide about 1 time in 50.
    expect(same).toBeLessThan(50);
  });

  it('log-normal draws have the median they are given', () => {
    const t: TransportParams = {
      request: { kind: 'lognormal', medianMs: 2, sigma: 0.4 },
      response: { kind: 'constant', ms: 0 },
      cancel: { kind: 'constant', ms: 0 },
    };
    const xs = Array.from({ length: 20001 }, (_, i) => transportDelayMs(t, 'request', 3, i, 1)).sort(
      (a, b) => a - b,
    );
    expect(xs[10000]).toBeGreaterThan(1.95);
    expect(xs[10000]).toBeLessThan(2.05);
  });
});

describe('bad transports are refused before any work', () => {
  it('an empirical delay with fewer than 100 samples is refused with the count', () => {
    let err: unknown;
    try {
      empiricalDelay(
        Array.from({ length: 99 }, () => 1),
        'calibration request transit',
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TransportSamplesError);
    const e = err as TransportSamplesError;
    expect(e.code).toBe('HB_TRANSPORT_TOO_FEW_SAMPLES');
    expect(e.count).toBe(99);
    expect(e.message).toMatch(/calibration request transit: 99 samples, at least 100/);
    expect(() => empiricalDelay(Array.from({ length: 100 }, () => 1))).not.toThrow();
  });

  it('negative or non-finite delays are refused, and runPoint refuses them before simulating', () => {
    expect(() => constantTransport(-1)).toThrow(TransportInvalidError);
    const samples = Array.from({ length: 150 }, (_, i) => (i === 7 ? Number.NaN : 1));
    expect(() => empiricalDelay(samples)).toThrow(/samplesMs\[\d+\] is NaN/);
    const bad: TransportParams = {
      request: { kind: 'lognormal', medianMs: 0, sigma: 1 },
      response: { kind: 'constant', ms: 0 },
      cancel: { kind: 'constant', ms: 0 },
    };
    expect(() => runPoint(point('no hedge', 0.1), { transport: bad })).toThrow(TransportInvalidError);
  });
});
