// Each claim on synthetic rows: it holds on study-shaped rows, fails when one figure contradicts it, and is
// inconclusive — naming the cause — when a point is missing, invalid, undecided or its interval straddles.
import { describe, expect, it } from 'vitest';
import {
  adaptiveLimitKeepsQueueShort,
  budgetPreventsCollapseNotDamage,
  type ClaimRow,
  delayMustSitAboveQueue,
  evaluateClaims,
  lightLoadHedgingWorks,
  noBudgetCollapses,
  propagatedCancellationEvensOut,
  smallerBudgetHelps,
} from '../../../analysis/claims/index.ts';
import { HEDGED, NO_HEDGE } from '../../../analysis/claims/reference-configs.ts';
import { REFERENCE_CONFIGS } from '../../../model/index.ts';
import { drop, patch, studyRows, sweepRows } from './study-rows.ts';

const rows = studyRows();
const NB = 'hedge, no budget';
const DB = 'hedge, default budget';
const B5 = 'hedge, budget 5 %';
const AL = 'hedge, default budget, adaptive limit';
const A3 = '3 attempts, no budget';

describe('the claims on study-shaped rows', () => {
  it('name the reference configurations exactly as model/ does', () => {
    expect([NO_HEDGE, ...HEDGED].sort()).toEqual(REFERENCE_CONFIGS.map((c) => c.name).sort());
  });

  it('all hold, on any source name (sim+net needs nothing of its own)', () => {
    for (const source of ['sim', 'sim+net']) {
      const results = evaluateClaims(studyRows(source));
      expect(results.map((r) => [r.claim, r.source, r.verdict])).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((c) => [c, source, 'holds']),
      );
    }
  });
});

describe('claim 1: light load, hedging works', () => {
  it('fails when a hedged p99.9 is no better than no hedge', () => {
    const r = lightLoadHedgingWorks(patch(rows, DB, 0.5, 'ignore', { p999_ms: 285 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('`hedge, default budget` 0.50 ignore p99.9 285.0 ms');
    expect(r.summary).toContain('not better');
  });

  it('fails when hedging costs more than the claimed ~2.2 % extra requests (+0.05)', () => {
    const r = lightLoadHedgingWorks(patch(rows, NB, 0.3, 'ignore', { requests_per_call: 1.08 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('requests per call 1.08 (expected ≤ 1.072)');
  });

  it('is inconclusive, naming the missing point, without `hedge, no budget` at 0.50', () => {
    const r = lightLoadHedgingWorks(drop(rows, NB, 0.5, 'ignore'), 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('missing point `hedge, no budget` 0.50 ignore seed 1');
  });

  it('is inconclusive when the real intervals straddle the margin', () => {
    const real = rows.map((x) => ({ ...x, source: 'real' }));
    const wide = patch(real, DB, 0.5, 'ignore', {
      p999_ms: 270,
      ci: { p999_ms: { low: 240, high: null } },
    });
    const r = lightLoadHedgingWorks(wide, 'real');
    expect(r.verdict).toBe('inconclusive');
    expect(r.evidence).toContain('270.0 ms [240.0, ∞]');
    expect(r.summary).toContain('undecided');
  });
});

describe('claim 2: no budget collapses at high load', () => {
  it('fails when no budget does not collapse at 0.95', () => {
    const r = noBudgetCollapses(patch(rows, NB, 0.95, 'ignore', { collapsed: false, p999_ms: 400 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('`hedge, no budget` 0.95 ignore did not collapse (expected collapse)');
  });

  it('fails when three attempts do not triple the load', () => {
    const r = noBudgetCollapses(patch(rows, A3, 0.85, 'ignore', { requests_per_call: 2.5 }), 'sim');
    expect(r.verdict).toBe('fails');
  });

  it('is inconclusive when the collapse criterion could not decide', () => {
    const undecided = patch(rows, A3, 0.95, 'ignore', {
      collapsed: false,
      collapseUndecided: 'too few samples in the window (12) to judge',
    });
    const r = noBudgetCollapses(undecided, 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('collapse undecided at `3 attempts, no budget` 0.95 ignore seed 1');
  });

  it('reports, without judging, whether three attempts collapsed at 0.50', () => {
    expect(noBudgetCollapses(rows, 'sim').evidence).toContain(
      'note: `3 attempts, no budget` 0.50 ignore collapsed',
    );
  });
});

describe('claim 3: the budget prevents collapse but not the damage', () => {
  it('fails when the default budget collapses at 0.70', () => {
    const r = budgetPreventsCollapseNotDamage(patch(rows, DB, 0.7, 'ignore', { collapsed: true }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('`hedge, default budget` 0.70 ignore collapsed (expected no collapse)');
  });

  it('fails when the budget lets more than its 10 % of every call it saw, plus its floor, through', () => {
    const r = budgetPreventsCollapseNotDamage(
      patch(rows, DB, 0.85, 'ignore', { requests_per_call: 1.13 }),
      'sim',
    );
    expect(r.verdict).toBe('fails');
    // 200 000 calls of which 180 000 measured: the warm-up's deposits count, 1 + 0.10 × 200/180 + 0.01.
    expect(r.summary).toContain('requests per call 1.13 (expected ≤ 1.1211)');
    const short = patch(rows, DB, 0.95, 'ignore', {
      calls: 4200,
      measured_calls: 3780,
      requests_per_call: 1.1108,
    });
    expect(budgetPreventsCollapseNotDamage(short, 'sim').summary).not.toContain('requests per call');
  });

  it('is inconclusive when a real point failed its self-check', () => {
    const real = rows.map((x) => ({ ...x, source: 'real' }));
    const r = budgetPreventsCollapseNotDamage(patch(real, DB, 0.7, 'ignore', { valid: false }), 'real');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('invalid point `hedge, default budget` 0.70 ignore seed 1');
  });
});

describe('claim 4: a 5 % budget helps, not enough', () => {
  it('fails when the 5 % budget is not worse than no hedge at 0.85', () => {
    const r = smallerBudgetHelps(patch(rows, B5, 0.85, 'ignore', { p999_ms: 290 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('`hedge, budget 5 %` 0.85 ignore p99.9 290.0 ms vs `no hedge` 0.85 ignore');
  });

  it('is inconclusive when the interval at 0.70 straddles the margin', () => {
    const real = rows.map((x) => ({ ...x, source: 'real' }));
    const r = smallerBudgetHelps(
      patch(real, B5, 0.7, 'ignore', { p999_ms: 280, ci: { p999_ms: { low: 250, high: 292 } } }),
      'real',
    );
    expect(r.verdict).toBe('inconclusive');
  });
});

describe('claim 5: the adaptive limit keeps the queue short', () => {
  it('fails when it rejects (almost) nothing', () => {
    const r = adaptiveLimitKeepsQueueShort(patch(rows, AL, 0.95, 'ignore', { rejected_rate: 0.01 }), 'sim');
    expect(r.verdict).toBe('fails');
  });

  it('fails when its p99 is not better than no hedge', () => {
    const r = adaptiveLimitKeepsQueueShort(patch(rows, AL, 0.95, 'ignore', { p99_ms: 262 }), 'sim');
    expect(r.verdict).toBe('fails');
  });

  it('is inconclusive without the no-hedge point', () => {
    const r = adaptiveLimitKeepsQueueShort(drop(rows, NO_HEDGE, 0.95, 'ignore'), 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('missing point `no hedge` 0.95 ignore seed 1');
  });
});

describe('claim 6: propagated cancellation evens the hedged configurations out', () => {
  it('fails when one hedged configuration has a different p99', () => {
    const r = propagatedCancellationEvensOut(patch(rows, A3, 0.85, 'propagate', { p99_ms: 40 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('different');
  });

  it('fails when the workers are not much less busy than without hedging', () => {
    const r = propagatedCancellationEvensOut(patch(rows, DB, 0.95, 'propagate', { utilization: 0.9 }), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('utilisation 0.9 vs `no hedge` 0.95 propagate 0.95');
  });

  it('is inconclusive, naming the point, when a configuration is missing at 0.95', () => {
    const r = propagatedCancellationEvensOut(drop(rows, AL, 0.95, 'propagate'), 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain(
      'missing point `hedge, default budget, adaptive limit` 0.95 propagate seed 1',
    );
  });

  it('is inconclusive when no row of the source exists', () => {
    const r = propagatedCancellationEvensOut([] as ClaimRow[], 'real');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('no row of source real');
  });
});

describe('claim 7: the delay must sit above the latency the queue causes', () => {
  it('fails when a delay near the median hedges (almost) only stragglers', () => {
    const r = delayMustSitAboveQueue(patch(rows, DB, 0.5, 'ignore', { hedge_rate: 0.03 }, 10), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain(
      '`hedge, default budget` delay 10 ms 0.50 ignore hedge rate 0.03 (expected ≥ 0.07)',
    );
  });

  it('fails when a delay above the queue latency does not fix the light-load tail', () => {
    const r = delayMustSitAboveQueue(patch(rows, DB, 0.5, 'ignore', { p999_ms: 300 }, 40), 'sim');
    expect(r.verdict).toBe('fails');
    expect(r.summary).toContain('not better');
  });

  it("takes the row without delay_ms as the configuration's own 20 ms", () => {
    expect(delayMustSitAboveQueue(rows, 'sim').evidence).toContain(
      '`hedge, default budget` delay 20 ms 0.85 ignore hedge rate 0.1018 (expected ≥ 0.07)',
    );
    // …and a row that writes the 20 ms out is the same point for the other claims.
    const explicit = rows.map((r) =>
      r.config === DB && r.delay_ms === undefined ? { ...r, delay_ms: 20 } : r,
    );
    expect(budgetPreventsCollapseNotDamage(explicit, 'sim').verdict).toBe('holds');
  });

  it('is inconclusive without a sweep, saying which preset gives one', () => {
    const noSweep = rows.filter((r) => !sweepRows().some((s) => s.delay_ms === r.delay_ms));
    const r = delayMustSitAboveQueue(noSweep, 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain(
      'no delay sweep of `hedge, default budget` 0.50 ignore seed 1 (delays present: 20 ms; run e.g. experiments/delay-sweep.json)',
    );
  });

  it('is inconclusive, naming it, without no hedge at the busy load', () => {
    const r = delayMustSitAboveQueue(drop(rows, NO_HEDGE, 0.85, 'ignore'), 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.summary).toContain('missing point `no hedge` 0.85 ignore seed 1');
  });
});
