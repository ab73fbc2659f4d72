// The target-server part's public surface.

export { POOL_MODES, type PoolMode } from './attempt-pool.ts';
export {
  createTargetServer,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  type TargetServer,
  type TargetServerOptions,
} from './create-server.ts';
export { TargetOptionsError } from './errors.ts';
export { readClockSkew } from './server-process.ts';
export { targetServerCommand } from './target-command.ts';
