// The library's errors: one base class with a stable `code`, so callers branch on codes, not on messages.

import { HedgebenchError } from './hedgebench-error.ts';

/** Base of every error the library throws or reports; `code` is stable across versions. */
export class LibraryError extends HedgebenchError {}

/** An option is out of its valid range or of the wrong type; names the field, the value and the range. */
export class ConfigError extends LibraryError {
  readonly field: string;
  readonly value: unknown;
  /** `fix`: what to do about it; the default suits an optional field (a required one has no default to fall back on). */
  constructor(
    field: string,
    value: unknown,
    valid: string,
    fix = 'Fix the option or leave it out for the default.',
  ) {
    super('HB_CONFIG_INVALID', `${field} = ${describe(value)} is invalid: ${valid}. ${fix}`);
    this.field = field;
    this.value = value;
  }
}

/** The adaptive limit refused an attempt at once (inflight >= floor(limit)); nothing was sent. */
export class AdaptiveLimitFullError extends LibraryError {
  readonly limit: number;
  readonly inflight: number;
  constructor(limit: number, inflight: number) {
    super(
      'HB_LIMIT_FULL',
      `adaptive concurrency limit reached (${inflight} in flight, limit ${limit}): the attempt was not sent; ` +
        'treat it as load shedding (back off or fail fast)',
    );
    this.limit = limit;
    this.inflight = inflight;
  }
}

/** An attempt was cancelled: a hedge loser, or every attempt after a caller abort. Inner policies record no outcome. */
export class CancelledError extends LibraryError {
  constructor(message = 'attempt cancelled (another attempt won, or the caller aborted)', cause?: unknown) {
    super('HB_CANCELLED', message, cause === undefined ? undefined : { cause });
  }
}

/** The call's deadline (shared by all its attempts) passed before any attempt succeeded. */
export class DeadlineExceededError extends LibraryError {
  readonly deadlineMs: number;
  constructor(deadlineMs: number) {
    super('HB_DEADLINE', `call deadline of ${deadlineMs} ms exceeded before any attempt succeeded`);
    this.deadlineMs = deadlineMs;
  }
}

/** True for errors that mean "the attempt ran out of time": our deadline, or a DOM-style TimeoutError. */
export function isTimeoutError(error: unknown): boolean {
  if (error instanceof DeadlineExceededError) return true;
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError';
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) {
    return String(value);
  }
  try {
    return JSON.stringify(value);
  } catch {
    return typeof value;
  }
}
