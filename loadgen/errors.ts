// Errors of the load generator: one base class with a stable `code`; messages name the field, the value and the fix.

import { EXIT_CODES, HedgebenchError } from '../library/index.ts';

/** Base of every load-generator error; `code` is stable and safe to match on. */
export class LoadgenError extends HedgebenchError {}

/** An option or a hedge configuration is invalid (the message names the field). */
export class LoadgenConfigError extends LoadgenError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_CONFIG_INVALID', message, options);
  }
}

/** The command line gives the point twice (--spec and point flags) or not at all: exit 2, like yargs' own. */
export class LoadgenUsageError extends LoadgenError {
  constructor(message: string) {
    super('HB_USAGE', message, { exitCode: EXIT_CODES.usage });
  }
}

/** The target did not accept a connection before the point started. */
export class TargetUnreachableError extends LoadgenError {
  constructor(target: string, options?: { cause?: unknown }) {
    super(
      'HB_TARGET_UNREACHABLE',
      `target ${target} refused or did not accept a connection; start the target server or fix --target`,
      options,
    );
  }
}

/** The gRPC listener answered, but it is not hedgebench's target (another service, package or method). */
export class WrongGrpcServiceError extends LoadgenError {
  constructor(address: string, details: string, options?: { cause?: unknown }) {
    super(
      'HB_GRPC_WRONG_SERVICE',
      `the gRPC listener at ${address} does not serve hedgebench.Target (expected the unary methods /hedgebench.Target/Work and /hedgebench.Target/Ping; it answered UNIMPLEMENTED: ${details}); point --grpc-target at a hedgebench target started with --grpc-port`,
      options,
    );
  }
}

/** Redis could not take the point's records or status (unreachable at start, or records were dropped). */
export class RedisUnusableError extends LoadgenError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_REDIS_UNUSABLE', message, options);
  }
}

/** One attempt failed: a non-2xx status or a network error. `reason` is short and stable enough to count. */
export class AttemptFailedError extends LoadgenError {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('HB_ATTEMPT_FAILED', `attempt failed: ${reason}`, options);
  }
}

/** The load generators sharing a point did not all get ready in time (one died, or its host is slow). */
export class BarrierTimeoutError extends LoadgenError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_BARRIER_TIMEOUT', message, options);
  }
}
