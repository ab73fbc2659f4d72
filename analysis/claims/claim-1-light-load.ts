// Claim 1: with load to spare, hedging works — whether or not a budget limits it.

import { metricSpec } from '../../contract/index.ts';
import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import type { Check, ClaimPoints } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { DEFAULT_BUDGET, NO_BUDGET, NO_HEDGE } from './reference-configs.ts';
import { latencyCheck, rateBoundCheck } from './relations.ts';

/** The study's extra requests at light load (~2.2 %), plus the requests-per-call tolerance. */
const MAX_REQUESTS_PER_CALL = 1.022 + metricSpec('requests_per_call').claimTolerance;

export const CLAIM_1: ClaimDefinition = {
  claim: 1,
  title: 'light load: hedging works',
  statement:
    'With load to spare, hedging works: up to 50 % load, p99.9 falls from ~290 ms to ~36 ms with ~2.2 % more requests, with or without a budget.',
  rule: `cancellation ignore, at load 0.50 and every lower load present: \`${NO_BUDGET}\` and \`${DEFAULT_BUDGET}\` are each better than \`${NO_HEDGE}\` at p99.9, and send at most ${MAX_REQUESTS_PER_CALL} requests per call (the study's 1.022 + the ${metricSpec('requests_per_call').claimTolerance} tolerance).`,
  checks(pts: ClaimPoints): Check[] {
    const loads = [...new Set([...pts.loads([NO_BUDGET, DEFAULT_BUDGET], 'ignore'), 0.5])].filter(
      (l) => l <= 0.5,
    );
    return loads.flatMap((load) =>
      [NO_BUDGET, DEFAULT_BUDGET].flatMap((config) => {
        const hedged = { config, load, cancellation: 'ignore' } as const;
        const plain = { config: NO_HEDGE, load, cancellation: 'ignore' } as const;
        return [
          latencyCheck(pts, hedged, plain, 'p999_ms', 'better'),
          rateBoundCheck(pts, hedged, 'requests_per_call', '<=', MAX_REQUESTS_PER_CALL),
        ];
      }),
    );
  },
};

/** Claim 1 on the rows of `source`. */
export function lightLoadHedgingWorks(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_1, rows, source);
}
