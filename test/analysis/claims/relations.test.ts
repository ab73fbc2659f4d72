// "better", "worse", "not worse" and "same result" on exact values and on intervals, and how collapse,
// invalid and missing points decide or block a comparison.
import { describe, expect, it } from 'vitest';
import { ClaimPoints } from '../../../analysis/claims/claim-points.ts';
import type { ClaimRow } from '../../../analysis/claims/index.ts';
import { type Expectation, latencyCheck, latencyTolerance } from '../../../analysis/claims/relations.ts';
import { row } from './study-rows.ts';

const A = { config: 'a', load: 0.5, cancellation: 'ignore' } as const;
const B = { config: 'b', load: 0.5, cancellation: 'ignore' } as const;

function check(a: Partial<ClaimRow>, b: Partial<ClaimRow>, expect: Expectation) {
  const pts = new ClaimPoints('real', 1, [
    row('a', 0.5, 'ignore', { source: 'real', ...a }),
    row('b', 0.5, 'ignore', { source: 'real', ...b }),
  ]);
  return latencyCheck(pts, A, B, 'p99_ms', expect);
}

describe('latency relations', () => {
  it('use a 2 % (≥ 0.5 ms) margin for better/worse and 5 % (≥ 1 ms) for same', () => {
    expect(latencyTolerance('better', 100, 200)).toBe(2);
    expect(latencyTolerance('better', 10, 20)).toBe(0.5);
    expect(latencyTolerance('same', 100, 200)).toBe(5);
    expect(latencyTolerance('same', 10, 20)).toBe(1);
  });

  it('decide exact values by the margins', () => {
    expect(check({ p99_ms: 97 }, { p99_ms: 100 }, 'better').verdict).toBe('holds');
    expect(check({ p99_ms: 99 }, { p99_ms: 100 }, 'better').verdict).toBe('fails');
    expect(check({ p99_ms: 103 }, { p99_ms: 100 }, 'worse').verdict).toBe('holds');
    expect(check({ p99_ms: 101 }, { p99_ms: 100 }, 'worse').verdict).toBe('fails');
    expect(check({ p99_ms: 101.5 }, { p99_ms: 100 }, 'not worse').verdict).toBe('holds');
    expect(check({ p99_ms: 104 }, { p99_ms: 100 }, 'not worse').verdict).toBe('fails');
    expect(check({ p99_ms: 104 }, { p99_ms: 100 }, 'same').verdict).toBe('holds');
    expect(check({ p99_ms: 106 }, { p99_ms: 100 }, 'same').verdict).toBe('fails');
  });

  it('take the whole difference interval: decisive when it clears the margin, inconclusive when it straddles', () => {
    const b = { p99_ms: 100, ci: { p99_ms: { low: 98, high: 102 } } };
    expect(check({ p99_ms: 90, ci: { p99_ms: { low: 88, high: 92 } } }, b, 'better').verdict).toBe('holds');
    // difference in [−14, 1]: may or may not be 2 ms better
    const straddle = check({ p99_ms: 95, ci: { p99_ms: { low: 88, high: 103 } } }, b, 'better');
    expect(straddle.verdict).toBe('inconclusive');
    expect(straddle.text).toContain('undecided');
    // difference in [−4, 4] lies within ±5: same; a wider one cannot be decided
    expect(check({ p99_ms: 100, ci: { p99_ms: { low: 98, high: 102 } } }, b, 'same').verdict).toBe('holds');
    expect(check({ p99_ms: 100, ci: { p99_ms: { low: 95, high: 105 } } }, b, 'same').verdict).toBe(
      'inconclusive',
    );
  });

  it('treat an open upper end as unbounded', () => {
    const open = check({ p99_ms: 90, ci: { p99_ms: { low: 85, high: null } } }, { p99_ms: 100 }, 'better');
    expect(open.verdict).toBe('inconclusive');
    expect(open.text).toContain('[85.0, ∞]');
  });

  it('count a collapse as worse, and two collapses as the same result', () => {
    expect(check({ collapsed: true }, { p99_ms: 100 }, 'worse').verdict).toBe('holds');
    expect(check({ collapsed: true }, { p99_ms: 100 }, 'not worse').verdict).toBe('fails');
    expect(check({ p99_ms: 500 }, { collapsed: true }, 'better').verdict).toBe('holds');
    expect(check({ collapsed: true }, { collapsed: true }, 'same').verdict).toBe('holds');
    expect(check({ collapsed: true }, { collapsed: true }, 'better').verdict).toBe('fails');
  });

  it('are inconclusive for an invalid point, but a collapse stays evidence even when invalid', () => {
    const inv = check({ valid: false, p99_ms: 50 }, { p99_ms: 100 }, 'better');
    expect(inv.verdict).toBe('inconclusive');
    expect(inv.text).toContain('invalid point `a` 0.50 ignore seed 1');
    expect(check({ valid: false, collapsed: true }, { p99_ms: 100 }, 'worse').verdict).toBe('holds');
  });

  it('name a missing point', () => {
    const pts = new ClaimPoints('real', 3, [row('a', 0.5, 'ignore', { source: 'real', seed: 3 })]);
    const c = latencyCheck(pts, A, B, 'p99_ms', 'better');
    expect(c).toEqual({ verdict: 'inconclusive', text: 'missing point `b` 0.50 ignore seed 3' });
  });
});
