// Errors of the runtime part: one base class with a stable `code`; messages say what failed and the fix.

/** Base of every runtime error; `code` is stable and safe to match on. */
export class RuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The target could not tell its clock (no GET /clock, no answer in time, a reply without `nowMs`). */
export class ClockUnavailableError extends RuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_CLOCK_UNAVAILABLE', message, options);
  }
}
