// Errors of the target server: a stable code, the HTTP status it maps to, and a message naming the field,
// the value received and the fix. Messages never contain the run's token.

import { EXIT_CODES, HedgebenchError, type HedgebenchErrorOptions } from '../library/index.ts';

/** Base class of every target-server error. */
export class TargetServerError extends HedgebenchError {
  constructor(
    code: string,
    readonly status: number,
    message: string,
    options?: HedgebenchErrorOptions,
  ) {
    super(code, message, options);
  }

  /** The JSON body of an error response. */
  toJSON(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** A query parameter or body field is missing or out of range (400). */
export class BadParameterError extends TargetServerError {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super('HB_BAD_PARAMETER', 400, message);
  }
}

/** A control route was called without the run's token, or with another one (401). */
export class UnauthorizedError extends TargetServerError {
  constructor() {
    super(
      'HB_UNAUTHORIZED',
      401,
      'this route needs the header "Authorization: Bearer <token>" with the token the server was started with',
    );
  }
}

/** A control route was called while attempts are queued or in service (409). */
export class BusyError extends TargetServerError {
  constructor(inFlight: number) {
    super(
      'HB_BUSY',
      409,
      `${inFlight} attempts are queued or in service; retry once GET /stats shows inFlight 0`,
    );
  }
}

/** Invalid server options (CLI flags or createTargetServer arguments). */
export class TargetOptionsError extends TargetServerError {
  constructor(message: string, options?: { cause?: unknown }) {
    // Bad options are a usage mistake: exit 2, like a flag yargs rejects.
    super('HB_TARGET_OPTIONS', 500, message, { ...options, exitCode: EXIT_CODES.usage });
  }
}

/** The pool thread's command ring is full (the thread is stalled): the attempt is refused, never queued (503). */
export class PoolBacklogError extends TargetServerError {
  constructor(capacity: number) {
    super(
      'HB_POOL_BACKLOG',
      503,
      `the pool thread has not taken the last ${capacity} commands (it is stalled); attempt refused — retry later, and see GET /stats pool.rejected`,
    );
    this.name = 'PoolBacklogError';
  }
}

/** The pool thread died, or did not answer a control command in time (500). */
export class PoolThreadError extends TargetServerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_POOL_THREAD', 500, message, options);
    this.name = 'PoolThreadError';
  }
}

/**
 * The model failed the attempt (`model.errorProb`): its worker held it errorMs, and the answer is this error
 * (HTTP 503; over gRPC UNAVAILABLE) — a fast failure the client's winner rule must see as an ordinary one.
 */
export class ModelFailureResponse extends TargetServerError {
  constructor() {
    super(
      'HB_MODEL_FAILURE',
      503,
      'the model failed this attempt (model.errorProb): its worker held it for model.errorMs, then answered with this error; retry elsewhere (hedge) or report it',
    );
    this.name = 'ModelFailureResponse';
  }
}

/**
 * A tied copy's sibling started first on another replica, whose server cancelled this copy while it was queued
 * (or before it arrived): it never ran here (HTTP 410). The load generator waits for the copy that runs.
 */
export class PeerCancelledResponse extends TargetServerError {
  constructor() {
    super(
      'HB_PEER_CANCELLED',
      410,
      'a sibling copy of this tied call started on another replica, whose server cancelled this one before it started; wait for that copy',
    );
    this.name = 'PeerCancelledResponse';
  }
}
