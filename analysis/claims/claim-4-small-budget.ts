// Claim 4: a smaller budget (5 %) helps, but not enough at high load.

import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import type { Check, ClaimPoints } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { BUDGET_5, DEFAULT_BUDGET, NO_HEDGE } from './reference-configs.ts';
import { latencyCheck } from './relations.ts';

export const CLAIM_4: ClaimDefinition = {
  claim: 4,
  title: 'budget 5 %: helps, not enough',
  statement:
    'A smaller budget (5 %) helps: better than the 10 % budget at every load, better than no hedge at 70 %, still worse than no hedge at 85 % and 95 %.',
  rule: `cancellation ignore, p99.9: \`${BUDGET_5}\` is never worse than \`${DEFAULT_BUDGET}\` at any load present and better at 0.70 and 0.85 (below 0.70 neither budget binds, so both give the same result; at 0.95 both may overload); better than \`${NO_HEDGE}\` at 0.70; worse than \`${NO_HEDGE}\` at 0.85 and 0.95 (a collapse counts as worse).`,
  checks(pts: ClaimPoints): Check[] {
    const at = (config: string, load: number) => ({ config, load, cancellation: 'ignore' }) as const;
    const loads = [...new Set([...pts.loads([BUDGET_5, DEFAULT_BUDGET], 'ignore'), 0.7, 0.85, 0.95])].sort(
      (a, b) => a - b,
    );
    const vsBudget = (l: number) => (l === 0.7 || l === 0.85 ? 'better' : 'not worse');
    return [
      ...loads.map((l) => latencyCheck(pts, at(BUDGET_5, l), at(DEFAULT_BUDGET, l), 'p999_ms', vsBudget(l))),
      latencyCheck(pts, at(BUDGET_5, 0.7), at(NO_HEDGE, 0.7), 'p999_ms', 'better'),
      latencyCheck(pts, at(BUDGET_5, 0.85), at(NO_HEDGE, 0.85), 'p999_ms', 'worse'),
      latencyCheck(pts, at(BUDGET_5, 0.95), at(NO_HEDGE, 0.95), 'p999_ms', 'worse'),
    ];
  },
};

/** Claim 4 on the rows of `source`. */
export function smallerBudgetHelps(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_4, rows, source);
}
