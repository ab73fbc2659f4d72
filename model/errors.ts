// Errors of the model part: a stable code, a message naming the field, the value and the fix.

import { HedgebenchError } from '../library/index.ts';

/** Base class of every model error. */
export class ModelError extends HedgebenchError {}

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
