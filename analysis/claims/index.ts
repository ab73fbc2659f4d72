// The claims of the study as checks over rows: what the rest of analysis/ (commands, report) uses.

export { type CallSample, pairedDifferenceInterval } from '../judge/block-bootstrap.ts';
export { dependsOnSeed } from './claim.ts';
export { lightLoadHedgingWorks } from './claim-1-light-load.ts';
export { noBudgetCollapses } from './claim-2-no-budget-collapse.ts';
export { budgetPreventsCollapseNotDamage } from './claim-3-budget-damage.ts';
export { smallerBudgetHelps } from './claim-4-small-budget.ts';
export { adaptiveLimitKeepsQueueShort } from './claim-5-adaptive-limit.ts';
export { propagatedCancellationEvensOut } from './claim-6-propagated-cancellation.ts';
export { delayMustSitAboveQueue } from './claim-7-delay-above-queue.ts';
export type { ClaimRow } from './claim-row.ts';
export { collapseUndecided, readClaimsInput } from './claims-input.ts';
export { formatClaimsTable, verdictCell } from './claims-table.ts';
export { CLAIMS, evaluateClaims } from './evaluate.ts';
export { writeClaims } from './run-claims.ts';
