// The public surface of library/: the resilience library the simulator and the load generator both run.

export {
  A6_MAX_ATTEMPTS,
  type A6HedgeOptions,
  A6HedgePolicy,
  type A6HedgeSnapshot,
  a6Hedge,
  checkA6Hedge,
} from './a6-hedge.ts';
export { A6Throttle, type A6ThrottleOptions, checkA6Throttle } from './a6-throttle.ts';
export {
  AdaptiveLimitPolicy,
  type AdaptiveLimitPolicyOptions,
  type AdaptiveLimitSnapshot,
  adaptiveLimit,
  type LimitRejectedListener,
  resolveLimitOptions,
} from './adaptive-limit.ts';
export {
  BALANCERS,
  type BalancerDraw,
  type BalancerName,
  BalancerPolicy,
  type BalancerPolicyOptions,
  type BalancerSnapshot,
  balancer,
  HEDGE_TARGETS,
  type HedgeTarget,
  MAX_REPLICAS,
} from './balancer.ts';
export { BUDGET_DEPOSIT, HedgeBudget, type HedgeBudgetOptions } from './budget.ts';
export {
  BUDGET_KINDS,
  type BudgetKind,
  CONCURRENCY_DEFAULTS,
  DEFAULT_BUDGET,
  type HedgeBudgetSettings,
  type HedgeBudgetShape,
  resolveHedgeBudget,
} from './budget-shape.ts';
export type { Clock, TimerHandle } from './clock.ts';
export { ConcurrencyBudget } from './concurrency-budget.ts';
export {
  AdaptiveLimitFullError,
  CancelledError,
  ConfigError,
  DeadlineExceededError,
  LibraryError,
} from './errors.ts';
export { GRADIENT2_DEFAULTS, Gradient2Limit, type Gradient2Options } from './gradient2.ts';
export {
  type HedgeFailedListener,
  type HedgeListener,
  HedgePolicy,
  type HedgeSnapshot,
  hedge,
} from './hedge.ts';
export {
  type HedgePolicyOptions,
  type HedgeSettings,
  LONE_FAILURE_RULES,
  type LoneFailureRule,
  resolveHedgeOptions,
  WINNER_RULES,
  type WinnerRule,
} from './hedge-options.ts';
export { EXIT_CODES, HedgebenchError, type HedgebenchErrorOptions } from './hedgebench-error.ts';
export { BUCKET_VALUE, BUCKETS, bucketOf } from './log-buckets.ts';
export { ManualClock, type ManualClockOptions } from './manual-clock.ts';
export type { CallState, Cancel, Operation, Outcome, Policy } from './operation.ts';
export {
  DELAY_COMBINE,
  DELAY_UNTIL,
  type DelayCombine,
  type DelayUntil,
  type HedgeDelayOptions,
  type HedgeDelaySettings,
  PercentileDelay,
  resolveHedgeDelay,
} from './percentile-delay.ts';
export { percentileRank } from './percentile-rank.ts';
export {
  type AdaptiveLimitStepOptions,
  type AttemptContext,
  type ExecuteOptions,
  type HedgeStepOptions,
  Pipeline,
  pipeline,
} from './pipeline.ts';
export {
  ADAPTIVE_LIMIT_RANGES,
  HEDGE_BUDGET_RANGES,
  HEDGE_DELAY_RANGES,
  HEDGE_RANGES,
  type OptionRange,
} from './ranges.ts';
export { WINDOW_SLOTS, WindowedHistogram } from './windowed-histogram.ts';
