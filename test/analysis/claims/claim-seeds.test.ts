// Several seeds: one verdict by strict majority, the split said in the summary, and the seed line.
import { describe, expect, it } from 'vitest';
import {
  CLAIMS,
  dependsOnSeed,
  evaluateClaims,
  formatClaimsTable,
  noBudgetCollapses,
  verdictCell,
} from '../../../analysis/claims/index.ts';
import { patch, studyRows } from './study-rows.ts';

const NB = 'hedge, no budget';
const A3 = '3 attempts, no budget';

describe('claims over several seeds', () => {
  it('hold by majority and say which seed disagreed', () => {
    const s3 = patch(studyRows('sim', 3), NB, 0.95, 'ignore', { collapsed: false, p999_ms: 400 });
    const r = noBudgetCollapses([...studyRows('sim', 1), ...studyRows('sim', 2), ...s3], 'sim');
    expect(r.verdict).toBe('holds');
    expect(dependsOnSeed(r)).toBe(true);
    expect(r.summary).toMatch(
      /^holds: depends on the seed — holds in seeds 1, 2, fails in seed 3 \(seed 3: /,
    );
    expect(r.evidence).toContain('seed 1: ');
    expect(r.evidence).toContain(' | seed 3: ');
  });

  it('are inconclusive when no verdict has a strict majority', () => {
    const s2 = patch(studyRows('sim', 2), NB, 0.95, 'ignore', { collapsed: false, p999_ms: 400 });
    const s3 = studyRows('sim', 3).filter((x) => !(x.config === A3 && x.load === 0.95));
    const r = noBudgetCollapses([...studyRows('sim', 1), ...s2, ...s3], 'sim');
    expect(r.verdict).toBe('inconclusive');
    expect(r.perSeed.map((s) => s.verdict)).toEqual(['holds', 'fails', 'inconclusive']);
    // the table says there was no majority, not that one seed of three was inconclusive
    expect(verdictCell(r)).toBe('inconclusive (no majority of 3 seeds: 1 holds, 1 fails, 1 inconclusive)');
  });

  it('print a table, the reasons, and what depends on the seed (verdicts and reported figures)', () => {
    const s2 = patch(studyRows('sim', 2), A3, 0.5, 'ignore', { collapsed: false, p99_ms: 31, p999_ms: 40 });
    const rows = [...studyRows('sim', 1), ...s2, ...studyRows('real', 1)];
    const text = formatClaimsTable(CLAIMS, evaluateClaims(rows), ['sim', 'real']);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^claim\s+sim\s+real$/);
    expect(lines[2]).toMatch(/^1 light load: hedging works\s+holds\s+holds$/);
    expect(text).toContain('2 sim: holds: in every seed (1, 2)');
    expect(text).toContain(
      'depends on the seed: no verdict (every seed gave the same verdict); figures: claim 2 sim note: `3 attempts, no budget` 0.50 ignore collapsed (seed 1), claim 2 sim note: `3 attempts, no budget` 0.50 ignore did not collapse (seed 2)',
    );
  });

  it('say that one seed cannot tell what depends on the seed', () => {
    const text = formatClaimsTable(CLAIMS, evaluateClaims(studyRows()), ['sim']);
    expect(text).toContain('depends on the seed: unknown, the rows have one seed');
  });
});
