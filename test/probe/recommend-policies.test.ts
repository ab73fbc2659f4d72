// recommend's search beyond fixed delays × ratio budgets (probe/recommend-space.ts): the policies each model
// gives a reason to try, and — with the simulator as the judge — server pushback chosen where it beats every
// fixed delay of the grid, in both seeds at recommend's own calls; and never a configuration that fails more
// calls than not hedging. Deterministic: the same simulation every run.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { type Candidate, formatRecommendation, recommend } from '../../probe/index.ts';
import { percentileWindowMs, searchConfigs } from '../../probe/recommend-space.ts';

const fixedRatio = (c: Candidate) =>
  c.config.hedge !== undefined &&
  c.config.hedge.delay === undefined &&
  c.config.hedge.budget === undefined &&
  c.config.hedge.winner === undefined &&
  c.config.hedge.loneFailure === undefined;

/** The best fixed-delay, ratio-budget candidate within the limit (what recommend chose before this search). */
function bestFixed(cs: readonly Candidate[], limit: number): Candidate {
  const ok = cs.filter((c) => fixedRatio(c) && !c.collapsed && c.requestsPerCall <= limit);
  return ok.reduce((a, c) => (c.tailMs < a.tailMs ? c : a));
}

describe('the search space', () => {
  const space = {
    model: DEFAULT_MODEL,
    load: 0.5,
    delaysMs: [12, 16, 32],
    budgets: [5, 0],
    percentiles: [95],
    shapes: true,
    replicas: 1,
  };
  const names = (s: typeof space) => searchConfigs(s).map((c) => c.name);

  it('tries the fixed grid first, then percentile delays and the other budget shapes', () => {
    const n = names(space);
    expect(n.slice(0, 6)).toEqual([
      'hedge 12 ms, budget 5 %',
      'hedge 12 ms, no budget',
      'hedge 16 ms, budget 5 %',
      'hedge 16 ms, no budget',
      'hedge 32 ms, budget 5 %',
      'hedge 32 ms, no budget',
    ]);
    expect(n).toContain('hedge p95 delay, budget 5 %');
    expect(n).toContain('hedge 16 ms, concurrency budget 20 % (min 3)');
    expect(n).toContain('hedge 16 ms, A6 tokens (10, 0.1)');
    // Nothing the model gives no reason for: no pushback rule, no failures, one queue.
    expect(n.some((x) => /pushback|first completion|on a failure|tied/.test(x))).toBe(false);
    const p95 = searchConfigs(space).find((c) => c.name === 'hedge p95 delay, budget 5 %');
    expect(p95?.hedge).toEqual({
      delayMs: 32,
      budgetPercent: 5,
      delay: { percentile: 95, windowMs: 10_000, minSamples: 100 },
    });
  });

  it('adds pushback with a pushback rule, the winner rule with failures, tied requests with replicas', () => {
    const n = names({
      ...space,
      model: { ...DEFAULT_MODEL, pushback: { queueAbove: 32, ms: 200 }, errorProb: 0.01 },
      replicas: 2,
    });
    expect(n).toContain('hedge 16 ms, server pushback');
    expect(n).toContain('hedge 16 ms, budget 10 %, first completion');
    expect(n).toContain('hedge 16 ms, budget 10 %, hedge at once on a failure');
    expect(n).toContain('tied, gap 0 ms, budget 5 %');
    expect(n).toContain('tied, gap 1.2 ms, no budget');
  });

  it('widens the percentile window where 10 s holds fewer than 1 000 attempts', () => {
    expect(percentileWindowMs(DEFAULT_MODEL, 0.5)).toBe(10_000);
    const slow = {
      ...DEFAULT_MODEL,
      workers: 1,
      medianMs: 1000,
      stragglerMinMs: 10_000,
      stragglerMaxMs: 30_000,
    };
    expect(percentileWindowMs(slow, 0.5)).toBeGreaterThan(1_000_000);
  });
});

describe('recommend, with the simulator as the judge', () => {
  // The preset's model (docs/policies.md): no hedges for 200 ms after a response sent while more than 2 ×
  // workers wait. Both seeds, at recommend's own 40 000 calls. (A percentile delay is in the search too and
  // loses here; at 20 000 calls a p95 delay looked best at 0.85, a transient gone by 40 000: docs/policies.md.)
  for (const seed of [1, 2]) {
    it(`chooses server pushback over every fixed delay at load 0.85 (16 workers, queue above 32, 200 ms), seed ${seed}`, () => {
      const r = recommend({
        model: { ...DEFAULT_MODEL, pushback: { queueAbove: 32, ms: 200 } },
        load: 0.85,
        maxRequestsPerCall: 1.1,
        seed,
        budgets: [5, 10, 0],
        percentiles: [95],
        shapes: false,
      });
      const fixed = bestFixed(r.candidates, 1.1);
      expect(r.best?.config.hedge?.budget).toEqual({ kind: 'pushback' });
      expect(r.best!.tailMs).toBeLessThan(fixed.tailMs);
      expect(r.best!.tailMs).toBeLessThan(r.baseline.tailMs);
      expect(r.best!.requestsPerCall).toBeLessThanOrEqual(1.1);
      expect(formatRecommendation(r)).toContain(
        `As a matrix configuration: \`${JSON.stringify(r.best!.config)}\``,
      );
    });
  }

  it('chooses server pushback over every fixed delay at load 0.7 (4 workers, no hedges for 200 ms above a queue of 8)', () => {
    const r = recommend({
      model: { ...DEFAULT_MODEL, workers: 4, pushback: { queueAbove: 8, ms: 200 } },
      load: 0.7,
      maxRequestsPerCall: 1.1,
      budgets: [5, 10, 0],
      percentiles: [],
      shapes: false,
    });
    const fixed = bestFixed(r.candidates, 1.1);
    expect(r.best?.config.hedge?.budget).toEqual({ kind: 'pushback' });
    expect(r.best!.tailMs).toBeLessThan(fixed.tailMs);
    expect(r.best!.tailMs).toBeLessThan(r.baseline.tailMs);
  });

  it('never chooses a configuration that returns more errors than not hedging (first-completion)', () => {
    const r = recommend({
      model: { ...DEFAULT_MODEL, workers: 4, errorProb: 0.05, errorMs: 1 },
      load: 0.5,
      maxRequestsPerCall: 1.2,
      calls: 10_000,
      budgets: [10],
      percentiles: [],
      shapes: false,
    });
    const fc = r.candidates.filter((c) => c.config.hedge?.winner === 'first-completion');
    expect(fc.length).toBeGreaterThan(0);
    expect(fc.every((c) => c.failedRate > r.baseline.failedRate)).toBe(true);
    expect(r.best?.config.hedge?.winner).toBeUndefined();
    expect(r.best!.failedRate).toBeLessThan(r.baseline.failedRate);
    const text = formatRecommendation(r);
    expect(text).toContain('| configuration | p99 ms | requests per call | calls failed | within limit |');
    expect(text).toContain('no (fails more calls than no hedge)');
  });

  it('runs tied requests against the replicas it is told of', () => {
    const r = recommend({
      model: { ...DEFAULT_MODEL, workers: 4 },
      load: 0.5,
      maxRequestsPerCall: 1.2,
      calls: 5000,
      delaysMs: [16],
      budgets: [10],
      percentiles: [],
      shapes: false,
      replicas: 2,
    });
    const tied = r.candidates.filter((c) => c.config.tied !== undefined);
    expect(tied.map((c) => c.config.name)).toEqual([
      'tied, gap 0 ms, budget 10 %',
      'tied, gap 1.6 ms, budget 10 %',
    ]);
    for (const c of tied) expect(c.requestsPerCall).toBeGreaterThan(1);
    expect(formatRecommendation(r)).toContain('Simulated against 2 replicas');
    expect(() =>
      recommend({ model: DEFAULT_MODEL, load: 0.5, maxRequestsPerCall: 1.1, replicas: 0 }),
    ).toThrow(/--replicas/);
  });
});
