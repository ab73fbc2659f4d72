// The target-server part's public surface.

export { POOL_MODES, type PoolMode } from './attempt-pool.ts';
export { type TargetServerArgs, targetServerCommand } from './command.ts';
export {
  type ConfigPatch,
  configPatchSchema,
  MAX_ATTEMPT,
  MAX_CALL,
  type RecordTarget,
  type ServerConfig,
} from './config.ts';
export {
  BadParameterError,
  BusyError,
  PoolBacklogError,
  PoolThreadError,
  TargetOptionsError,
  TargetServerError,
  UnauthorizedError,
} from './errors.ts';
export type { HoldErrorSummary } from './hold-time.ts';
export { type RunOptions, readToken, runTargetServer } from './run.ts';
export { attemptLine } from './target.ts';
export {
  createTargetServer,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  type TargetServer,
  type TargetServerOptions,
} from './target-server.ts';
export type { TargetStats } from './target-stats.ts';
