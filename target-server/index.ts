// The target-server part's public surface.

export { targetServerCommand } from './command.ts';
export { TargetOptionsError } from './errors.ts';
export { readClockSkew } from './run.ts';
export {
  createTargetServer,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  type TargetServer,
  type TargetServerOptions,
} from './target-server.ts';
