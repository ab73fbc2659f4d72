// The loadgen part's public surface: the open-loop load generator, its CLI command and its self-check.

export { AD_CRITICAL_CASE0, andersonDarlingExponential } from './anderson-darling.ts';
export { loadgenCommand } from './command.ts';
export { parseConfigArg, parseModelArg } from './config-arg.ts';
export {
  AttemptFailedError,
  LoadgenConfigError,
  LoadgenError,
  RedisUnusableError,
  TargetUnreachableError,
} from './errors.ts';
export { createLoadGenerator, type LoadGenerator } from './load-generator.ts';
export type { LoadGeneratorOptions } from './options.ts';
export { callLine, type LoadResult } from './result.ts';
export { createScheduler, type Scheduler, type SchedulerEnd, type SchedulerOptions } from './scheduler.ts';
export { type SelfCheck, type SelfCheckOptions, selfCheck } from './self-check.ts';
export type { LoadProgress } from './status.ts';
export { type AttemptOutcome, createTransport, type Transport, type TransportOptions } from './transport.ts';
