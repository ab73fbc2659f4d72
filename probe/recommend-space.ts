// The configurations `recommend` simulates: fixed delays × ratio budgets (the study's grid, first, so a tie
// keeps its choice), then the policies beyond it that the service's model gives a reason to try — percentile
// delays, the other budget shapes, server pushback when the model pushes back, the winner rule and hedging
// on a failure when the model fails attempts, tied requests when the service has replicas.

import type { HedgeConfig } from '../model/index.ts';
import { hasFailures, type ModelParams, meanHoldMs } from '../model/index.ts';

/** What the search covers. */
interface SearchSpace {
  model: ModelParams;
  load: number;
  /** Fixed hedge delays, ms. */
  delaysMs: readonly number[];
  /** Ratio budgets, % of calls (0 = none). */
  budgets: readonly number[];
  /** Percentiles of recent attempts to hedge at (90, 95, 99; [] = none). */
  percentiles: readonly number[];
  /** The concurrency budget and A6's tokens beside the ratio budget (default true). */
  shapes: boolean;
  /** Replicas behind the client's balancer (1 = one service, one queue). */
  replicas: number;
}

/**
 * The percentile delay's window, ms: 10 s (Finagle's and the matrix's `"p95"`), longer when the load sends
 * fewer than 1 000 attempts in 10 s — a p99 of fewer rests on its last ten values.
 */
export function percentileWindowMs(model: ModelParams, load: number, replicas = 1): number {
  const perMs = (load * model.workers * replicas) / meanHoldMs(model);
  return Math.min(60_000_000, Math.max(10_000, Math.ceil(1000 / perMs / 1000) * 1000));
}

const budgetWords = (b: number) => (b === 0 ? 'no budget' : `budget ${b} %`);

/** Every configuration of the search, each with a name that says its policy. */
export function searchConfigs(s: SearchSpace): HedgeConfig[] {
  const out: HedgeConfig[] = [];
  const d0 = s.delaysMs;
  for (const d of d0)
    for (const b of s.budgets)
      out.push({ name: `hedge ${d} ms, ${budgetWords(b)}`, hedge: { delayMs: d, budgetPercent: b } });
  // A percentile delay is its own rule; until the window holds 100 attempts it hedges at the grid's p95
  // (the middle fixed delay), as the matrix's "p95" entries do at 20 ms.
  const fallback = d0[Math.min(2, d0.length - 1)];
  const windowMs = percentileWindowMs(s.model, s.load, s.replicas);
  for (const q of s.percentiles)
    for (const b of s.budgets)
      out.push({
        name: `hedge p${q} delay, ${budgetWords(b)}`,
        hedge: { delayMs: fallback, budgetPercent: b, delay: { percentile: q, windowMs, minSamples: 100 } },
      });
  for (const d of d0) {
    if (s.shapes) {
      out.push({
        name: `hedge ${d} ms, concurrency budget 20 % (min 3)`,
        hedge: { delayMs: d, budget: { kind: 'concurrency', percent: 20, min: 3 } },
      });
      out.push({
        name: `hedge ${d} ms, A6 tokens (10, 0.1)`,
        hedge: { delayMs: d, budget: { kind: 'tokens', maxTokens: 10, tokenRatio: 0.1 } },
      });
    }
    // Pushback is worth trying only where the server sends it.
    if (s.model.pushback !== undefined)
      out.push({
        name: `hedge ${d} ms, server pushback`,
        hedge: { delayMs: d, budget: { kind: 'pushback' } },
      });
    // With failures the winner rule matters: first-completion returns a fast error, hedge-now retries it.
    if (hasFailures(s.model)) {
      out.push({
        name: `hedge ${d} ms, budget 10 %, first completion`,
        hedge: { delayMs: d, winner: 'first-completion' },
      });
      out.push({
        name: `hedge ${d} ms, budget 10 %, hedge at once on a failure`,
        hedge: { delayMs: d, loneFailure: 'hedge-now' },
      });
    }
  }
  // Tied copies need a second queue; the gap keeps both from starting on idle replicas (Dean & Barroso).
  if (s.replicas >= 2) {
    const gaps = [...new Set([0, Math.round(d0[0] * 10) / 100])];
    for (const g of gaps)
      for (const b of s.budgets)
        out.push({ name: `tied, gap ${g} ms, ${budgetWords(b)}`, tied: { gapMs: g, budgetPercent: b } });
  }
  return out;
}
