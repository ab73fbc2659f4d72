// The simulator against queueing theory: with textbook service distributions and no hedging, the mean
// queue wait must match Erlang C (M/M/c) and Pollaczek–Khinchine (M/D/1) within 2 %.
//
// The wait is measured exactly (enqueue → start of each attempt, not from a histogram). Each test also
// computes a 95 % interval from independent replications and bounds its width, so the 2 % check means
// something. The hard case is
// M/M/16 at ρ = 0.5: its mean wait is 0.1 % of a service time and comes from rare bursts, so it needs
// millions of calls (replications measured on this machine: sd ≈ 1.3 % of the mean at 10 M calls).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, type ModelParams } from '../../model/index.ts';
import { erlangC } from '../../probe/index.ts';
import { runPoint } from '../../simulator/index.ts';

const REPLICATIONS = 20;

/**
 * Simulates `calls` plain calls as 20 independent replications (seeds 1..20, the first 1 % of each
 * discarded as warm-up); returns the pooled mean wait and a 95 % half-width from the replications (ms).
 */
function simulateWait(model: ModelParams, load: number, calls: number) {
  let waitSum = 0;
  let started = 0;
  const means: number[] = [];
  for (let seed = 1; seed <= REPLICATIONS; seed++) {
    const r = runPoint({
      config: { name: 'no hedge' },
      load,
      cancellation: 'ignore',
      seed,
      calls: calls / REPLICATIONS,
      warmupFraction: 0.01,
      model,
    });
    expect(r.collapse.collapsed).toBe(false);
    waitSum += r.meanWaitMs * r.startedMeasured;
    started += r.startedMeasured;
    means.push(r.meanWaitMs);
  }
  const m = means.reduce((x, y) => x + y, 0) / REPLICATIONS;
  const sd = Math.sqrt(means.reduce((x, y) => x + (y - m) ** 2, 0) / (REPLICATIONS - 1));
  // t quantile for 19 degrees of freedom
  return { mean: waitSum / started, halfWidth: (2.093 * sd) / Math.sqrt(REPLICATIONS) };
}

function check(name: string, sim: { mean: number; halfWidth: number }, theory: number, maxHalfWidth: number) {
  const err = sim.mean / theory - 1;
  const msg = `${name}: simulated ${sim.mean.toFixed(5)} ms ± ${sim.halfWidth.toFixed(5)} (95 %), theory ${theory.toFixed(5)} ms, error ${(100 * err).toFixed(2)} %`;
  expect(Math.abs(err), msg).toBeLessThan(0.02);
  expect(sim.halfWidth / theory, msg).toBeLessThan(maxHalfWidth);
}

const exponential = (workers: number): ModelParams => ({
  ...DEFAULT_MODEL,
  workers,
  service: { kind: 'exponential', meanMs: 10 },
});

describe('mean queue wait against theory', () => {
  it('M/M/1 at ρ = 0.5 matches Erlang C (= ρ/(1−ρ)·E[S])', () => {
    const sim = simulateWait(exponential(1), 0.5, 1_000_000);
    check('M/M/1 ρ=0.5', sim, (erlangC(1, 0.5) * 10) / (1 - 0.5), 0.02);
    expect(erlangC(1, 0.5)).toBeCloseTo(0.5, 12);
  });

  it('M/M/16 at ρ = 0.9 matches Erlang C', () => {
    const sim = simulateWait(exponential(16), 0.9, 4_000_000);
    check('M/M/16 ρ=0.9', sim, (erlangC(16, 0.9) * 10) / (16 * 0.1), 0.04);
  });

  it('M/M/16 at ρ = 0.5 matches Erlang C', () => {
    const sim = simulateWait(exponential(16), 0.5, 12_000_000);
    check('M/M/16 ρ=0.5', sim, (erlangC(16, 0.5) * 10) / (16 * 0.5), 0.04);
  });

  it('M/D/1 at ρ = 0.7 matches Pollaczek–Khinchine (ρ·D / (2(1−ρ)))', () => {
    const model: ModelParams = { ...DEFAULT_MODEL, workers: 1, service: { kind: 'constant', ms: 10 } };
    const sim = simulateWait(model, 0.7, 1_000_000);
    check('M/D/1 ρ=0.7', sim, (0.7 * 10) / (2 * (1 - 0.7)), 0.02);
  });
});
