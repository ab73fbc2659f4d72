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
export { BUDGET_DEPOSIT, BUDGET_SLOTS, HedgeBudget, type HedgeBudgetOptions } from './budget.ts';
export type { Clock, TimerHandle } from './clock.ts';
export {
  AdaptiveLimitFullError,
  CancelledError,
  ConfigError,
  DeadlineExceededError,
  isTimeoutError,
  LibraryError,
} from './errors.ts';
export { GRADIENT2_DEFAULTS, Gradient2Limit, type Gradient2Options } from './gradient2.ts';
export {
  type HedgeFailedListener,
  type HedgeListener,
  HedgePolicy,
  type HedgePolicyOptions,
  type HedgeSettings,
  type HedgeSnapshot,
  hedge,
  resolveHedgeOptions,
} from './hedge.ts';
export { EXIT_CODES, HedgebenchError, type HedgebenchErrorOptions } from './hedgebench-error.ts';
export { ManualClock, type ManualClockOptions } from './manual-clock.ts';
export {
  type CallState,
  type Cancel,
  NO_CANCEL,
  newCallState,
  type Operation,
  type Outcome,
  type Policy,
} from './operation.ts';
export {
  type AdaptiveLimitStepOptions,
  type AttemptContext,
  type ExecuteOptions,
  type HedgeStepOptions,
  Pipeline,
  type PipelineBuilder,
  pipeline,
  promiseOperation,
} from './pipeline.ts';
export { ADAPTIVE_LIMIT_RANGES, HEDGE_RANGES, type OptionRange } from './ranges.ts';
