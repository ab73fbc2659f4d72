// Errors of the model part: a stable code, a message naming the field, the value and the fix.

import { HedgebenchError } from '../library/index.ts';

/** Base class of every model error. */
class ModelError extends HedgebenchError {}

/** The worker pool was asked to do something its state does not allow (e.g. reconfigure while busy). */
export class PoolStateError extends ModelError {
  constructor(message: string) {
    super('HB_POOL_STATE', message);
  }
}

/** A matrix file does not match the format; `issues` lists each bad field with its fix. */
export class MatrixInvalidError extends ModelError {
  constructor(
    message: string,
    readonly issues: readonly string[],
    options?: { cause?: unknown },
  ) {
    super('HB_MATRIX_INVALID', message, options);
  }
}

/** A transport (model/transport-delays.ts) cannot be used: a negative or non-finite delay, too few samples. */
export class TransportInvalidError extends ModelError {
  constructor(message: string) {
    super('HB_TRANSPORT_INVALID', message);
  }
}

/** An empirical transport was given fewer samples than MIN_EMPIRICAL_SAMPLES; `count` is how many. */
export class TransportSamplesError extends ModelError {
  constructor(
    message: string,
    readonly count: number,
  ) {
    super('HB_TRANSPORT_TOO_FEW_SAMPLES', message);
  }
}

/**
 * The model failed an attempt (`errorProb`, model/attempt-failure.ts): the server held a worker for errorMs
 * and answered with an error (HTTP 503, gRPC UNAVAILABLE). The simulator's failed outcomes carry it; like the
 * load generator's gRPC failures it says its gRPC status in `grpcCode`, which A6's non-fatal codes read.
 */
export class ModelFailureError extends ModelError {
  /** gRPC UNAVAILABLE (14): what hedgebench's target answers such an attempt with over gRPC. */
  readonly grpcCode = 14;
  constructor() {
    super(
      'HB_MODEL_FAILURE',
      'the model failed this attempt (model.errorProb): the server held a worker for errorMs, then answered with an error',
    );
  }
}
