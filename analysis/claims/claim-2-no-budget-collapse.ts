// Claim 2: without a budget, hedging collapses the service at high load, and it does not recover.

import { metricSpec } from '../../contract/index.ts';
import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import type { Check, ClaimPoints } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { NO_BUDGET, THREE_ATTEMPTS } from './reference-configs.ts';
import { collapseCheck, rateBoundCheck } from './relations.ts';

/** The loads the claim calls high: 0.95 always, 0.85 when the source has it. */
const HIGH = [0.85, 0.95];
const TOL = metricSpec('requests_per_call').claimTolerance;

export const CLAIM_2: ClaimDefinition = {
  claim: 2,
  title: 'no budget: collapse at high load',
  statement:
    'Without a budget, hedging collapses the service at high load (the queue never drains; load doubles, or triples with three attempts), and it does not recover by itself. With another seed, three attempts collapsed already at 50 %.',
  rule: `cancellation ignore, at load 0.95 (and 0.85 when present): \`${NO_BUDGET}\` and \`${THREE_ATTEMPTS}\` collapse (the collapse criterion: the queue never drained in the second half of the run and the attempts in flight kept growing — it did not recover), with at least ${2 - TOL} and ${3 - TOL} requests per call (2 and 3 minus the ${TOL} tolerance). Whether three attempts collapse at 0.50 is reported, not judged: the study found it depends on the seed.`,
  checks(pts: ClaimPoints): Check[] {
    const loads = HIGH.filter(
      (l) => l === 0.95 || pts.loads([NO_BUDGET, THREE_ATTEMPTS], 'ignore').includes(l),
    );
    return loads.flatMap((load) =>
      (
        [
          [NO_BUDGET, 2],
          [THREE_ATTEMPTS, 3],
        ] as const
      ).flatMap(([config, attempts]) => {
        const p = { config, load, cancellation: 'ignore' } as const;
        return [
          collapseCheck(pts, p, true),
          rateBoundCheck(pts, p, 'requests_per_call', '>=', attempts - TOL),
        ];
      }),
    );
  },
  notes(pts: ClaimPoints): string[] {
    // The study's seed-dependent remark: reported beside the verdict, never part of it.
    const p = { config: THREE_ATTEMPTS, load: 0.5, cancellation: 'ignore' } as const;
    const r = pts.get(p);
    return r ? [`note: ${pts.name(p)} ${r.collapsed ? 'collapsed' : 'did not collapse'}`] : [];
  },
};

/** Claim 2 on the rows of `source`. */
export function noBudgetCollapses(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_2, rows, source);
}
