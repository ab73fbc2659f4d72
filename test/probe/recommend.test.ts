// The recommendation on a known model: deterministic, within the requests-per-call limit, and it finds
// where hedging stops helping (the reference study's finding: hedging helps at moderate load, not near 1).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { formatRecommendation, ProbeOptionsError, recommend } from '../../probe/index.ts';

const model = { ...DEFAULT_MODEL, workers: 4 };

describe('recommend', () => {
  it('picks a configuration within the limit that beats no hedging at load 0.5, and says where hedging stops helping', () => {
    const r = recommend({
      model,
      load: 0.5,
      maxRequestsPerCall: 1.1,
      calls: 20_000,
      delaysMs: [15, 25],
      budgets: [5, 10, 0],
    });
    expect(r.best).not.toBeNull();
    expect(r.best?.requestsPerCall).toBeLessThanOrEqual(1.1);
    expect(r.best?.tailMs).toBeLessThan(r.baseline.tailMs);
    // The unlimited budget sends more than 1.1 requests per call and must not be chosen.
    expect(r.best?.config.hedge?.budgetPercent).not.toBe(0);
    expect(r.stopsHelpingAt).not.toBeNull();
    expect(r.stopsHelpingAt).toBeGreaterThan(0.5);
    const text = formatRecommendation(r);
    expect(text).toContain(`Recommended at load 0.5: ${r.best?.config.name}`);
    expect(text).toContain('Hedging stops helping from load');
  });

  it('is deterministic', () => {
    const o = { model, load: 0.3, maxRequestsPerCall: 1.05, calls: 5000, delaysMs: [20], budgets: [5] };
    expect(recommend(o)).toEqual(recommend(o));
  });

  it('says not to hedge when no configuration fits a limit of 1.0 request per call', () => {
    const r = recommend({
      model,
      load: 0.5,
      maxRequestsPerCall: 1,
      calls: 5000,
      delaysMs: [5],
      budgets: [0],
    });
    expect(r.best).toBeNull();
    expect(formatRecommendation(r)).toContain('Do not hedge');
  });

  it('refuses a load or a limit out of range, naming the option', () => {
    expect(() => recommend({ model, load: 0, maxRequestsPerCall: 1.1 })).toThrow(ProbeOptionsError);
    expect(() => recommend({ model, load: 0.5, maxRequestsPerCall: 0.5 })).toThrow(/--max-requests-per-call/);
  });
});
