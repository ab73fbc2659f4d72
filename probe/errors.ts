// Errors of the probe: a stable code, a message naming what was measured and the fix. A probe that stops
// early carries what it measured so far (`partial`), so the command can report it without a model.json.

import { EXIT_CODES, HedgebenchError } from '../library/index.ts';

/** What a stopped probe had measured: the report is written from it, marked incomplete. */
export interface ProbePartial {
  /** Human-readable figures measured so far, one line each. */
  readonly measured: readonly string[];
  /** The probe's data so far (the ProbeResult fields that were filled). */
  readonly data?: unknown;
}

/** Base of every probe error. */
export class ProbeError extends HedgebenchError {
  readonly partial: ProbePartial;
  constructor(
    code: string,
    message: string,
    partial: ProbePartial = { measured: [] },
    options: { cause?: unknown; exitCode?: number } = {},
  ) {
    const so = partial.measured.length > 0 ? `\nmeasured so far:\n  ${partial.measured.join('\n  ')}` : '';
    super(code, `${message}${so}`, options);
    this.partial = partial;
  }
}

/** An option of probe or recommend is invalid (refused before any request is sent). */
export class ProbeOptionsError extends ProbeError {
  constructor(message: string) {
    super('HB_PROBE_OPTIONS', message, { measured: [] }, { exitCode: EXIT_CODES.usage });
  }
}

/** The target accepted no TCP connection. */
export class ProbeUnreachableError extends ProbeError {
  constructor(url: string, cause: unknown) {
    super(
      'HB_PROBE_UNREACHABLE',
      `${url} accepted no connection (${(cause as Error)?.message ?? String(cause)}); check the host and port, and that the service is up`,
      { measured: [] },
      { cause },
    );
  }
}

/** The target answered errors (non-2xx, resets, timeouts) where it should have answered. */
export class ProbeErrorsError extends ProbeError {
  constructor(message: string, partial: ProbePartial) {
    super('HB_PROBE_ERRORS', message, partial);
  }
}

/** Every latency sits at the network floor: no service time to fit. */
export class ProbeTooFastError extends ProbeError {
  constructor(message: string, partial: ProbePartial) {
    super('HB_PROBE_TOO_FAST', message, partial);
  }
}

/** Too few answers within the time bound to fit a distribution. */
export class ProbeTooSlowError extends ProbeError {
  constructor(message: string, partial: ProbePartial) {
    super('HB_PROBE_TOO_SLOW', message, partial);
  }
}

/** The ramp reached --max-rate (or --max-seconds) without the latency rising: no knee, no capacity. */
export class ProbeNoKneeError extends ProbeError {
  constructor(message: string, partial: ProbePartial) {
    super('HB_PROBE_NO_KNEE', message, partial);
  }
}

/** Ctrl-C (or the caller's AbortSignal) stopped the probe. */
export class ProbeInterruptedError extends ProbeError {
  constructor(partial: ProbePartial) {
    super('HB_PROBE_INTERRUPTED', 'the probe was interrupted; nothing more was sent', partial, {
      exitCode: EXIT_CODES.sigint,
    });
  }
}
