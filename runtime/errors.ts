// Errors of the runtime part that callers branch on: each has a stable `code`; messages say what failed
// and the fix. (Bad arguments are RangeErrors, as in SystemClock.)

/** The target could not tell its clock (no GET /clock, no answer in time, a reply without `nowMs`). */
export class ClockUnavailableError extends Error {
  readonly code = 'HB_CLOCK_UNAVAILABLE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClockUnavailableError';
  }
}
