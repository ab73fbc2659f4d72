// runPoint: the library's policies on the model pool. Counters add up in both cancellation modes,
// propagate frees workers at once, arrivals are open loop, results are deterministic, collapse is flagged.

import { describe, expect, it } from 'vitest';
import { type AttemptRecord, formatPointRow } from '../../contract/index.ts';
import {
  ArrivalSchedule,
  type Cancellation,
  DEFAULT_MODEL,
  type HedgeConfig,
  type Point,
  referenceConfig,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';

const ref = (name: string): HedgeConfig => referenceConfig(name)!;

function point(config: string | HedgeConfig, load: number, cancellation: Cancellation, calls: number): Point {
  return {
    config: typeof config === 'string' ? ref(config) : config,
    load,
    cancellation,
    seed: 11,
    calls,
    warmupFraction: 0.1,
    model: DEFAULT_MODEL,
  };
}

function withRecords(p: Point, maxInFlight?: number) {
  const records: AttemptRecord[] = [];
  const result = runPoint(p, { onAttempt: (r) => records.push(r), maxInFlight });
  return { result, records };
}

describe('runPoint', () => {
  for (const mode of ['ignore', 'propagate'] as const) {
    it(`${mode}: every attempt ends exactly once, as served, cancelled while queued or cancelled in service`, () => {
      const { result, records } = withRecords(point('3 attempts, no budget', 0.5, mode, 20_000));
      const s = result.pool;
      expect(s.submitted).toBeGreaterThan(20_000);
      expect(s.served + s.cancelledQueued + s.cancelledInService).toBe(s.submitted);
      expect(records).toHaveLength(s.submitted);
      expect(new Set(records.map((r) => `${r.call}/${r.attempt}`)).size).toBe(s.submitted);
      const count = (e: string) => records.filter((r) => r.ended === e).length;
      expect([count('served'), count('cancelled-queued'), count('cancelled-in-service')]).toEqual([
        s.served,
        s.cancelledQueued,
        s.cancelledInService,
      ]);
      // the worker time the pool counted is exactly the time attempts held workers
      const held = records.reduce((sum, r) => sum + (Number.isNaN(r.startMs) ? 0 : r.endMs - r.startMs), 0);
      expect(held).toBeCloseTo(s.busyMs, 6);
      expect(s.cancelRequests).toBeGreaterThan(0);
      if (mode === 'ignore') {
        expect(s.cancelledQueued + s.cancelledInService).toBe(0);
        expect(s.served).toBe(s.submitted);
      } else {
        expect(s.cancelledQueued + s.cancelledInService).toBe(s.cancelRequests);
        expect(s.cancelledInService).toBeGreaterThan(0);
      }
      // requests per call counts attempts of measured calls that reached the pool
      const measured = records.filter((r) => r.call >= 2000).length;
      expect(result.row.requests_per_call).toBeCloseTo(measured / 18_000, 10);
    });
  }

  it('propagate never leaves a worker busy for a cancelled attempt; ignore does', () => {
    for (const mode of ['propagate', 'ignore'] as const) {
      const { records } = withRecords(point('hedge, no budget', 0.5, mode, 20_000));
      const byCall = new Map<number, AttemptRecord[]>();
      for (const r of records) byCall.set(r.call, [...(byCall.get(r.call) ?? []), r]);
      let lateLosers = 0;
      for (const rs of byCall.values()) {
        // the call's first served attempt won; everything else was cancelled when it ended
        const winEnd = Math.min(...rs.filter((r) => r.ended === 'served').map((r) => r.endMs));
        for (const r of rs) {
          if (r.endMs > winEnd) lateLosers++;
          if (mode === 'propagate' && r.ended !== 'served') expect(r.endMs).toBe(winEnd);
        }
      }
      if (mode === 'propagate') expect(lateLosers).toBe(0);
      else expect(lateLosers).toBeGreaterThan(100);
    }
  });

  it('is open loop: arrival times do not depend on the configuration or on latency', () => {
    const calls = 20_000;
    const firstAttempts = (config: string, mode: Cancellation) => {
      const { result, records } = withRecords(point(config, 0.95, mode, calls));
      const t = new Float64Array(calls);
      for (const r of records) if (r.attempt === 1) t[r.call] = r.enqueueMs;
      return { t, result };
    };
    const plain = firstAttempts('no hedge', 'propagate');
    // this one collapses: latency grows without bound, arrivals must not notice
    const heavy = firstAttempts('3 attempts, no budget', 'ignore');
    expect(heavy.result.collapse.collapsed).toBe(true);
    expect(heavy.result.row.p99_ms!).toBeGreaterThan(10 * plain.result.row.p99_ms!);
    expect(heavy.t).toEqual(plain.t);
    const schedule = ArrivalSchedule.forPoint(point('no hedge', 0.95, 'ignore', calls));
    for (let i = 0; i < calls; i += 101) expect(Math.abs(plain.t[i] - schedule.at(i))).toBeLessThan(1e-6);
  });

  it('is deterministic: the same point gives the same row', () => {
    const p = point('hedge, default budget, adaptive limit', 0.95, 'ignore', 20_000);
    const a = runPoint(p);
    const b = runPoint(structuredClone(p));
    expect(formatPointRow(b.row)).toBe(formatPointRow(a.row));
    expect(b.collapse).toEqual(a.collapse);
    // the adaptive limit of the library is in the loop: it sheds load here
    expect(a.row.rejected_rate!).toBeGreaterThan(0);
    expect(a.row.measured_calls).toBe(18_000);
  });

  it('measures what a stable point should show: utilisation ≈ load, no collapse, valid, no send lag', () => {
    const r = runPoint(point('no hedge', 0.5, 'ignore', 50_000));
    expect(r.collapse.collapsed).toBe(false);
    expect(r.row.utilization!).toBeGreaterThan(0.475);
    expect(r.row.utilization!).toBeLessThan(0.525);
    expect(r.row).toMatchObject({ source: 'sim', valid: true, send_lag_p99_ms: null, requests_per_call: 1 });
    expect(r.row.p50_ms!).toBeGreaterThan(9);
    expect(r.row.p50_ms!).toBeLessThan(11.5);
  });

  it('flags an overloaded point as collapsed, with the evidence, and still writes percentiles', () => {
    const r = runPoint(point('no hedge', 1.2, 'ignore', 20_000));
    expect(r.collapse.collapsed).toBe(true);
    expect(r.collapse.queueMinSecondHalf).toBeGreaterThan(0);
    expect(r.collapse.inFlightEnd).toBeGreaterThan(r.collapse.inFlightMid + 16);
    expect(r.collapse.growthPerSec).toBeGreaterThan(0);
    expect(r.row.collapsed).toBe(true);
    expect(r.row.p99_ms).not.toBeNull();
    expect(r.truncated).toBe(false);
  });

  it('stops arrivals at the memory guard and still finishes deterministically', () => {
    const p = point('3 attempts, no budget', 0.95, 'ignore', 50_000);
    const a = runPoint(p, { maxInFlight: 3000 });
    expect(a.truncated).toBe(true);
    expect(a.row.collapsed).toBe(true);
    expect(a.arrived).toBeLessThan(50_000);
    expect(a.collapse.reason).toMatch(/memory guard/);
    expect(a.pool.served + a.pool.cancelledQueued + a.pool.cancelledInService).toBe(a.pool.submitted);
    const b = runPoint(p, { maxInFlight: 3000 });
    expect(formatPointRow(b.row)).toBe(formatPointRow(a.row));
  });

  it('names the point when its configuration is invalid', () => {
    const bad = point({ name: 'bad', hedge: { delayMs: -1 } }, 0.5, 'ignore', 100);
    expect(() => runPoint(bad)).toThrow(/bad\|0\.50\|ignore\|11.*delayMs/);
  });
});
