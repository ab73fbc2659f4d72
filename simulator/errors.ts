// Errors of the simulator part: a stable code, a message naming what was wrong and the fix.

import { HedgebenchError } from '../library/index.ts';

/** Base class of every simulator error. */
class SimulatorError extends HedgebenchError {}

/** The bundled worker (dist/sim-worker.mjs) is missing or a worker thread died. */
export class SimWorkerError extends SimulatorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_SIM_WORKER', message, options);
  }
}

/** A point failed to simulate (bad configuration, or a bug); names the point. */
export class SimPointError extends SimulatorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_SIM_POINT', message, options);
  }
}

/** A `hedgebench simulate` option is malformed, or its output folder would overwrite something. */
export class SimOptionError extends SimulatorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_SIM_OPTION', message, options);
  }
}
