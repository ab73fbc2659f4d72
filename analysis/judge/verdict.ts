// The verdict rules: does the simulator's value for a point and metric agree with the measurement? The
// verdicts every metric of a point shares (collapse, validity, a missing side) are decided here; a metric's
// own verdict is the equivalence rule of equivalence.ts. results/README.md states the same rules.

import type { PointRow, Verdict } from '../../contract/index.ts';

/** Rounds to a metric's decimals so the verdict matches the printed numbers exactly. */
export function roundTo(x: number, decimals: number): number {
  return Number(x.toFixed(decimals));
}

/**
 * The verdict every metric of a point shares, or null when each metric is judged on its own.
 * Precedence: missing > both-collapsed > invalid > collapse-mismatch. Both-collapsed wins over invalid
 * because a generator stopped at its collapse cap cannot pass its rate check; a mismatch is a finding
 * only when the measurement passed its self-check.
 */
export function pointVerdict(sim: PointRow | undefined, real: PointRow | undefined): Verdict | null {
  if (!sim || !real) return 'missing';
  if (sim.collapsed && real.collapsed) return 'both-collapsed';
  if (!real.valid) return 'invalid';
  if (sim.collapsed !== real.collapsed) return 'collapse-mismatch';
  return null;
}
