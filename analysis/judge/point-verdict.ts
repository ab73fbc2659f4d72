// One verdict per point, over its seven compared metrics: the colour of a cell in the report's agreement
// grid and the phrase of its tables. Pure: a point's comparison rows in, a category and text out.

import type { Verdict } from '../../contract/index.ts';
import type { PointAnalysis } from './point-analysis.ts';

/**
 * A point's overall verdict: `agrees` when every metric agrees, `diverges` when any metric diverges, or
 * the verdict all its metrics share (`both-collapsed`, `collapse-mismatch`, `invalid`, `missing`).
 */
export type PointCategory = Exclude<Verdict, 'calibration'>;

/** Every category in the order a legend lists them, with the colour of its grid cells. */
export const POINT_CATEGORIES: readonly { category: PointCategory; color: string; text: string }[] = [
  {
    category: 'agrees',
    color: '#4caf50',
    text: 'agrees: every difference, with its interval, within its margin',
  },
  {
    category: 'diverges',
    color: '#e4572e',
    text: 'diverges: at least one difference wholly outside its margin',
  },
  {
    category: 'undecided',
    color: '#f2c14e',
    text: 'undecided: an interval straddles a margin (more calls would decide it)',
  },
  { category: 'collapse-mismatch', color: '#8e0e00', text: 'collapse-mismatch: one side collapsed' },
  { category: 'both-collapsed', color: '#7e57c2', text: 'both-collapsed: sim and real collapsed' },
  { category: 'invalid', color: '#bdbdbd', text: 'invalid: the measurement failed its self-check' },
  { category: 'missing', color: '#f5f5f5', text: 'missing: no sim or no real row' },
];

/** The point's overall verdict (see PointCategory). */
export function pointCategory(p: Pick<PointAnalysis, 'rows'>): PointCategory {
  const vs = p.rows.map((r) => r.verdict);
  if (vs.length === 0) return 'missing';
  if (vs.every((v) => v === vs[0]) && vs[0] !== 'calibration') return vs[0];
  if (vs.includes('diverges')) return 'diverges';
  if (vs.includes('collapse-mismatch')) return 'collapse-mismatch';
  if (vs.includes('undecided')) return 'undecided';
  // Agreement on some metrics while others have no value (no successful call): not a verdict to colour green.
  return vs.every((v) => v === 'agrees') ? 'agrees' : 'missing';
}

/** How many of the point's metrics agree, as `k/n`. */
export function agreeCount(p: Pick<PointAnalysis, 'rows'>): string {
  return `${p.rows.filter((r) => r.verdict === 'agrees').length}/${p.rows.length}`;
}

/** One-phrase verdict of a point over all its metrics, e.g. `agrees 5/7; p99 diverges, p99.9 diverges`. */
export function pointVerdictText(p: Pick<PointAnalysis, 'rows'>): string {
  const shared =
    p.rows.length > 0 && p.rows.every((r) => r.verdict === p.rows[0].verdict) ? p.rows[0].verdict : null;
  if (shared && shared !== 'agrees') return shared;
  const off = p.rows.filter((r) => r.verdict !== 'agrees').map((r) => `${r.metric} ${r.verdict}`);
  return off.length === 0 ? `agrees ${agreeCount(p)}` : `agrees ${agreeCount(p)}; ${off.join(', ')}`;
}
