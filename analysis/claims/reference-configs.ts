// The reference study's configuration names the claims talk about (model/hedge-config.ts defines them;
// a test checks these are the same names).

export const NO_HEDGE = 'no hedge';
export const NO_BUDGET = 'hedge, no budget';
export const DEFAULT_BUDGET = 'hedge, default budget';
export const BUDGET_5 = 'hedge, budget 5 %';
export const ADAPTIVE = 'hedge, default budget, adaptive limit';
export const THREE_ATTEMPTS = '3 attempts, no budget';

/** Every hedged configuration of the study. */
export const HEDGED = [NO_BUDGET, DEFAULT_BUDGET, BUDGET_5, ADAPTIVE, THREE_ATTEMPTS] as const;
