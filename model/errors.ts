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
