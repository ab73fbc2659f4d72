// The claims of the study as checks over rows: what the rest of analysis/ (commands, report) uses.

export { type CallSample, pairedDifferenceInterval } from '../judge/block-bootstrap.ts';
export { type ClaimDefinition, dependsOnSeed, evaluateClaim } from './claim.ts';
export { CLAIM_1, lightLoadHedgingWorks } from './claim-1-light-load.ts';
export { CLAIM_2, noBudgetCollapses } from './claim-2-no-budget-collapse.ts';
export { budgetPreventsCollapseNotDamage, CLAIM_3 } from './claim-3-budget-damage.ts';
export { CLAIM_4, smallerBudgetHelps } from './claim-4-small-budget.ts';
export { adaptiveLimitKeepsQueueShort, CLAIM_5 } from './claim-5-adaptive-limit.ts';
export { CLAIM_6, propagatedCancellationEvensOut } from './claim-6-propagated-cancellation.ts';
export { CLAIM_7, delayMustSitAboveQueue } from './claim-7-delay-above-queue.ts';
export type { ClaimInterval, ClaimResult, ClaimRow, ClaimVerdict, LatencyColumn } from './claim-row.ts';
export { claimRowsOfRun, collapseUndecided, readClaimsInput, sourcesOf } from './claims-input.ts';
export { formatClaimsTable, verdictCell } from './claims-table.ts';
export { CLAIMS, evaluateClaims } from './evaluate.ts';
export { LATENCY_TOLERANCE, latencyTolerance } from './relations.ts';
export { type ClaimsOutcome, writeClaims } from './run-claims.ts';
