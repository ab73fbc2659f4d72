// Every claim on every source: the list of claims in the study's order, evaluated claim by claim.

import type { ClaimDefinition } from './claim.ts';
import { evaluateClaim } from './claim.ts';
import { CLAIM_1 } from './claim-1-light-load.ts';
import { CLAIM_2 } from './claim-2-no-budget-collapse.ts';
import { CLAIM_3 } from './claim-3-budget-damage.ts';
import { CLAIM_4 } from './claim-4-small-budget.ts';
import { CLAIM_5 } from './claim-5-adaptive-limit.ts';
import { CLAIM_6 } from './claim-6-propagated-cancellation.ts';
import { CLAIM_7 } from './claim-7-delay-above-queue.ts';
import type { ClaimResult, ClaimRow } from './claim-row.ts';
import { sourcesOf } from './claims-input.ts';

/** The study's claims, in its order. */
export const CLAIMS: readonly ClaimDefinition[] = [
  CLAIM_1,
  CLAIM_2,
  CLAIM_3,
  CLAIM_4,
  CLAIM_5,
  CLAIM_6,
  CLAIM_7,
];

/** Every claim on every source of `rows` (claim by claim, sources in display order). */
export function evaluateClaims(rows: readonly ClaimRow[], sources = sourcesOf(rows)): ClaimResult[] {
  return CLAIMS.flatMap((def) => sources.map((s) => evaluateClaim(def, rows, s)));
}
