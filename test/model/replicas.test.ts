// The replica model's pure parts: correlated stragglers (shared with attempt 1 with probability c, and c = 0 is
// today's draw exactly), the slow replica's factor, the balancer's draws and the setup read from a point's dims.
import { describe, expect, it } from 'vitest';
import {
  balancerDraw,
  correlatedServiceTimeMs,
  DEFAULT_MODEL,
  replicaServiceMs,
  replicaSetupOf,
  SINGLE_REPLICA,
  SLOW_REPLICA,
  serviceTimeMs,
} from '../../model/index.ts';

const M = DEFAULT_MODEL;
const isStraggler = (ms: number) => ms >= M.stragglerMinMs;

describe('correlated stragglers', () => {
  it('c = 0 is serviceTimeMs exactly, for every attempt', () => {
    for (let call = 0; call < 2000; call++) {
      for (let a = 1; a <= 3; a++) {
        expect(correlatedServiceTimeMs(M, 7, call, a, 0)).toBe(serviceTimeMs(M, 7, call, a));
      }
    }
  });

  it('c = 1: every attempt is a straggler of attempt 1’s length exactly when attempt 1 is one', () => {
    let stragglers = 0;
    for (let call = 0; call < 20_000; call++) {
      const first = correlatedServiceTimeMs(M, 3, call, 1, 1);
      expect(first).toBe(serviceTimeMs(M, 3, call, 1));
      const second = correlatedServiceTimeMs(M, 3, call, 2, 1);
      if (isStraggler(first)) {
        stragglers++;
        expect(second).toBe(first);
      } else {
        expect(isStraggler(second)).toBe(false);
        // A body draw of its own key, not a copy of attempt 1's.
        expect(second).not.toBe(first);
      }
    }
    expect(stragglers / 20_000).toBeCloseTo(M.stragglerProb, 2);
  });

  it('c = 0.5: about half the calls whose attempt 1 straggles have a straggling hedge too', () => {
    let firstSlow = 0;
    let bothSlow = 0;
    for (let call = 0; call < 200_000; call++) {
      const first = correlatedServiceTimeMs(M, 9, call, 1, 0.5);
      if (!isStraggler(first)) continue;
      firstSlow++;
      if (isStraggler(correlatedServiceTimeMs(M, 9, call, 2, 0.5))) bothSlow++;
    }
    // Shared with probability 0.5, otherwise independent (0.02): 0.5 + 0.5 · 0.02 = 0.51.
    expect(bothSlow / firstSlow).toBeGreaterThan(0.46);
    expect(bothSlow / firstSlow).toBeLessThan(0.56);
  });
});

describe('slow replica and balancer draws', () => {
  it('only the slow replica’s service times are scaled', () => {
    const setup = { ...SINGLE_REPLICA, replicas: 4, slowReplica: 2.5 };
    const base = serviceTimeMs(M, 1, 42, 1);
    expect(replicaServiceMs(M, setup, 1, 42, 1, SLOW_REPLICA)).toBe(base * 2.5);
    expect(replicaServiceMs(M, setup, 1, 42, 1, 1)).toBe(base);
  });

  it('balancer draws are a pure function of (seed, call, attempt, k), in [0, 1)', () => {
    const d = balancerDraw(11);
    expect(d(5, 2, 0)).toBe(balancerDraw(11)(5, 2, 0));
    expect(d(5, 2, 0)).not.toBe(d(5, 2, 1));
    expect(d(5, 2, 0)).not.toBe(balancerDraw(12)(5, 2, 0));
    for (let i = 0; i < 1000; i++) {
      const u = d(i, 1, i % 2);
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
  });

  it('a point without dims is one replica; absent fields take their defaults', () => {
    expect(replicaSetupOf(undefined)).toEqual(SINGLE_REPLICA);
    expect(replicaSetupOf({ replicas: 4 })).toEqual({ ...SINGLE_REPLICA, replicas: 4 });
  });
});
