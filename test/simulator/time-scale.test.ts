// The metamorphic test of the dilated clock (docs/time-scale.md): a point run k times slower — every duration
// × k, every rate ÷ k — gives the same row in model time as the undilated point. Latencies match within
// the histogram's resolution; counts, rates, utilisation and collapse match exactly.

import { describe, expect, it } from 'vitest';
import type { PointRow } from '../../contract/index.ts';
import {
  constantTransport,
  DEFAULT_MODEL,
  type Point,
  type PointDims,
  REFERENCE_CONFIGS,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';

const LATENCY = ['p50_ms', 'p90_ms', 'p99_ms', 'p999_ms', 'max_ms', 'mean_ms'] as const;
const EXACT = [
  'measured_calls',
  'requests_per_call',
  'hedge_rate',
  'skipped_rate',
  'rejected_rate',
  'failed_rate',
  'collapsed',
] as const;

function point(
  config: Point['config'],
  cancellation: Point['cancellation'],
  load: number,
  dims?: PointDims,
): Point {
  return {
    config,
    load,
    cancellation,
    seed: 7,
    calls: 3000,
    warmupFraction: 0.1,
    model: { ...DEFAULT_MODEL },
    ...(dims === undefined ? {} : { dims }),
  };
}

function dilated(p: Point, k: number): Point {
  return { ...p, dims: { ...p.dims, timeScale: k } };
}

function expectSameInModelTime(a: PointRow, b: PointRow, what: string): void {
  for (const c of EXACT) expect(b[c], `${what}: ${c}`).toBe(a[c]);
  // Busy time and span both divide by k: equal to the last digit points.csv prints.
  expect(b.utilization?.toFixed(4), `${what}: utilization`).toBe(a.utilization?.toFixed(4));
  for (const c of LATENCY) {
    const x = a[c];
    const y = b[c];
    if (x === null) {
      expect(y, `${what}: ${c}`).toBeNull();
      continue;
    }
    // HDR keeps 3 significant digits: one bucket either way is the resolution.
    expect(Math.abs((y as number) - x), `${what}: ${c} ${x} vs ${y}`).toBeLessThanOrEqual(
      Math.max(0.002 * x, 0.01),
    );
  }
}

describe('the dilated clock in the simulator', () => {
  const cases: { what: string; p: Point; transport?: boolean }[] = [];
  for (const c of REFERENCE_CONFIGS)
    for (const mode of ['ignore', 'propagate'] as const)
      cases.push({ what: `${c.name}, ${mode}`, p: point(c, mode, 0.7) });
  const budgeted = REFERENCE_CONFIGS.find((c) => c.name === 'hedge, default budget')!;
  cases.push(
    { what: 'collapsing: no budget at 0.95', p: point(REFERENCE_CONFIGS[1], 'ignore', 0.95) },
    {
      what: 'replicas: 3, least-outstanding, correlation 0.5, a slow replica',
      p: point(budgeted, 'ignore', 0.6, {
        replicas: 3,
        balancer: 'least-outstanding',
        correlation: 0.5,
        slowReplica: 2,
      }),
    },
    { what: 'clients: 3', p: point(budgeted, 'propagate', 0.7, { clients: 3 }) },
    { what: 'a transport of 1.5 ms each way', p: point(budgeted, 'ignore', 0.7), transport: true },
    {
      what: 'grpc-js hedging (A6) with its throttle',
      p: point(
        {
          name: 'a6',
          grpcHedging: { maxAttempts: 3, hedgingDelayMs: 20 },
          retryThrottling: { maxTokens: 10, tokenRatio: 0.1 },
        },
        'propagate',
        0.7,
        { transport: 'grpc', hedger: 'grpc-js' },
      ),
    },
  );

  it.each(cases)('$what: k = 2, 5, 10 give the k = 1 row in model time', ({ what, p, transport }) => {
    const t = transport ? { transport: constantTransport(1.5) } : {};
    const base = runPoint(p, t).row;
    expect(base.measured_calls).toBeGreaterThan(0);
    for (const k of [2, 5, 10]) {
      const r = runPoint(dilated(p, k), t);
      expect(r.row.time_scale).toBe(k);
      expectSameInModelTime(base, r.row, `${what} at k = ${k}`);
    }
  });

  it('really dilates: attempts run k times longer on the simulated clock, the results do not', () => {
    const p = point(budgeted, 'ignore', 0.5);
    const served = (q: Point) => {
      let sum = 0;
      runPoint(q, { onAttempt: (a) => (sum += a.serviceMs) });
      return sum;
    };
    expect(served(dilated(p, 5)) / served(p)).toBeCloseTo(5, 6);
    const one = runPoint(p);
    const five = runPoint(dilated(p, 5));
    expect(five.events).toBe(one.events);
    expect(five.simulatedMs).toBeCloseTo(one.simulatedMs, 3);
  });
});
