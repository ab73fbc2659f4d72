// With none of the new options (delay, budget, winner, loneFailure) a HedgePolicy behaves exactly as before
// them: a 3 000-call workload touching every path gives the same event trace, pinned by fingerprints taken
// with library/ at commit c11c1df (before the options existed). The explicit defaults, and new options set
// so that they never act, give the same trace through the code path the new options take.
import { describe, expect, it } from 'vitest';
import * as lib from '../../library/index.ts';
import { digest, runWorkload } from './workload.ts';

// Fingerprints of runWorkload(c11c1df's library, options): lines:FNV-1a.
const BEFORE = {
  default: '12711:9c020ccd',
  noBudget: '13187:9937d452',
  twoAttemptsNoDeadline: '12725:e2d95b52',
};

describe('HedgePolicy without the new options', () => {
  it('gives the trace it gave before them, budget refusals, failures, deadlines and cancels included', () => {
    expect(digest(runWorkload(lib, {}))).toBe(BEFORE.default);
    expect(digest(runWorkload(lib, { budgetPercent: 0 }))).toBe(BEFORE.noBudget);
    expect(
      digest(runWorkload(lib, { maxAttempts: 2, deadlineMs: undefined, minRemainingMs: undefined })),
    ).toBe(BEFORE.twoAttemptsNoDeadline);
  });

  it('the explicit defaults change nothing', () => {
    const explicit = { budget: { kind: 'ratio' }, winner: 'first-success', loneFailure: 'wait' };
    expect(digest(runWorkload(lib, explicit))).toBe(BEFORE.default);
  });

  it('new options that never act change nothing, though the calls take the path that feeds them', () => {
    // A percentile that never has enough samples (until 'fixed' → delayMs), and pushback honoured by the
    // ratio budget while no outcome carries one: every attempt's end is now seen by the policy.
    const idle = {
      delay: { percentile: 50, windowMs: 1000, minSamples: 1e9 },
      budget: { kind: 'ratio', pushback: true },
    };
    const p = lib.pipeline(new lib.ManualClock()).hedge(idle as lib.HedgeStepOptions).hedgePolicy!;
    expect(p.ext).toBe(true);
    expect(digest(runWorkload(lib, idle))).toBe(BEFORE.default);
  });

  it('resolves to today’s settings plus the new fields at their defaults', () => {
    expect(lib.resolveHedgeOptions({})).toEqual({
      delayMs: 1000,
      maxAttempts: 2,
      budgetPercent: 10,
      budgetMinHedgesPerSecond: 1,
      budgetWindowMs: 10_000,
      deadlineMs: undefined,
      minRemainingMs: 0,
      delay: undefined,
      budget: { kind: 'ratio', pushback: false },
      winner: 'first-success',
      loneFailure: 'wait',
    });
    const p = lib.pipeline(new lib.ManualClock()).hedge({ delayMs: 20 }).hedgePolicy!;
    expect(p.ext).toBe(false);
    expect(p.snapshot()).toMatchObject({
      hedgedOnError: 0,
      pushbackSkipped: 0,
      delayMs: 20,
      percentileMs: undefined,
      hedgesInFlight: undefined,
      tokens: undefined,
      pushbackUntil: undefined,
    });
  });
});
