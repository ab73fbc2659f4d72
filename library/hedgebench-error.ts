// The base class of every hedgebench error, in every part. It lives in library/ because library/ is the
// one part every other part may import, and an error class needs neither Node nor I/O, so library/ stays
// pure; contract/ re-exports it as part of the format (codes and exit codes are what users and tests see).

/**
 * Every exit status a hedgebench command ends with (docs/running.md lists them; a test holds them equal).
 * `thresholds`: everything was measured and compared, but a verdict named by `failOn` / `--fail-on` occurred.
 */
export const EXIT_CODES = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 2,
  thresholds: 3,
  sigint: 130,
  sigterm: 143,
});

/** Options every hedgebench error takes: the underlying cause, and the exit code when it ends a command. */
export interface HedgebenchErrorOptions {
  cause?: unknown;
  /** Exit status of a command this error ends (one of EXIT_CODES); 1 unless given. */
  exitCode?: number;
}

/** A hedgebench error: `code` is stable across versions (safe to match on), `exitCode` ends a command. */
export class HedgebenchError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, options?: HedgebenchErrorOptions) {
    // Only pass `cause` on when given, so errors without one keep no `cause` property at all.
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.exitCode = options?.exitCode ?? EXIT_CODES.failed;
    this.name = new.target.name;
  }
}
