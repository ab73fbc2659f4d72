// Claim 3: the budget prevents collapse but not the damage.

import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import type { Check, ClaimPoints } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { DEFAULT_BUDGET, NO_HEDGE } from './reference-configs.ts';
import { collapseCheck, latencyCheck, rateBoundCheck } from './relations.ts';

/**
 * "Never more than 1.10 per call": the budget's 10 % plus its floor of 1 hedge/s over the window, which at
 * the study's arrival rates (≥ 340 calls/s at load 0.30) adds less than 0.01 per call.
 */
const MAX_REQUESTS_PER_CALL = 1.11;
/** Loads below the point where a 10 % extra load overflows the 5 % margin: there the budget must not collapse. */
const NO_COLLAPSE = [0.7, 0.85];

export const CLAIM_3: ClaimDefinition = {
  claim: 3,
  title: 'budget: no collapse, still damage',
  statement:
    "The budget prevents collapse but not the damage: requests never exceed 1.10 per call; from 70 % load the default budget's tail is worse than no hedge; at 95 % a 10 % extra load does not fit in a 5 % margin.",
  rule: `cancellation ignore: \`${DEFAULT_BUDGET}\` sends at most ${MAX_REQUESTS_PER_CALL} requests per call at every load present (1.10 + the budget's floor of 1 hedge/s, < 0.01 per call here); it does not collapse at 0.70 (and 0.85 when present); it is worse than \`${NO_HEDGE}\` at p99.9 at 0.70, 0.85 (when present) and 0.95, a collapse counting as worse.`,
  checks(pts: ClaimPoints): Check[] {
    const present = pts.loads([DEFAULT_BUDGET], 'ignore');
    const want = (l: number) => l === 0.7 || l === 0.95 || present.includes(l);
    const at = (config: string, load: number) => ({ config, load, cancellation: 'ignore' }) as const;
    const budgetLoads = [...new Set([...present, 0.7, 0.95])].sort((a, b) => a - b);
    return [
      ...budgetLoads.map((l) =>
        rateBoundCheck(pts, at(DEFAULT_BUDGET, l), 'requests_per_call', '<=', MAX_REQUESTS_PER_CALL),
      ),
      ...NO_COLLAPSE.filter(want).map((l) => collapseCheck(pts, at(DEFAULT_BUDGET, l), false)),
      ...[0.7, 0.85, 0.95]
        .filter(want)
        .map((l) => latencyCheck(pts, at(DEFAULT_BUDGET, l), at(NO_HEDGE, l), 'p999_ms', 'worse')),
    ];
  },
};

/** Claim 3 on the rows of `source`. */
export function budgetPreventsCollapseNotDamage(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_3, rows, source);
}
