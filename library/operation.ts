// The synchronous core every policy shares: an attempt reports its outcome through a callback, so the
// simulator can run millions of calls on a ManualClock without a promise per attempt.

/** Per-call bookkeeping, made by Pipeline.newCall(call) and filled in by the policies. */
export interface CallState {
  /** The caller's call index. */
  readonly call: number;
  /** Attempts handed to the operation (incl. the first); attempts the adaptive limit refused are not counted. */
  attempts: number;
  /** Hedges the budget refused (0 or 1). */
  skipped: number;
  /** Hedges started at once because an attempt failed (hedgeOn, loneFailure 'hedge-now', A6's non-fatal status), not because the delay elapsed. */
  hedgedOnError: number;
  /** 1-based attempt whose success won; 0 = none. */
  winner: number;
  /** The call ended with AdaptiveLimitFullError. */
  rejected: boolean;
  /** Attempts the adaptive limit refused (0 or 1: a refusal stops further attempts of the call). */
  limited: number;
  /** Replica of each attempt (index = attempt number), written by a BalancerPolicy; undefined without one. */
  replicas: number[] | undefined;
}

/**
 * What one attempt (or a whole call) produced. `pushbackMs` (either variant, optional): the server asks the
 * client not to send more attempts for this long, as gRPC's `grpc-retry-pushback-ms` or HTTP's Retry-After
 * do; a HedgePolicy honours it when its budget says so (budget.kind 'pushback', or pushback: true).
 */
export type Outcome<T> =
  | { ok: true; value: T; pushbackMs?: number }
  | { ok: false; error: unknown; pushbackMs?: number };

/** Cancels running work; the reason says why (a CancelledError, the caller's abort reason, a deadline). */
export type Cancel = (reason?: unknown) => void;

/**
 * Starts the work for (call, attempt); calls `done` exactly once unless cancelled first; returns a canceller.
 * `done` may be called synchronously, before the canceller is returned. After cancel, a late `done` from
 * below must be ignored by every wrapper (each one guards it).
 */
export type Operation<T> = (call: CallState, attempt: number, done: (o: Outcome<T>) => void) => Cancel;

/** A policy decorates an operation with one concern (hedging, a concurrency limit …). */
export interface Policy {
  wrap<T>(inner: Operation<T>): Operation<T>;
}

/** Makes a fresh CallState for call index `call`. */
export function newCallState(call: number): CallState {
  return {
    call,
    attempts: 0,
    skipped: 0,
    hedgedOnError: 0,
    winner: 0,
    rejected: false,
    limited: 0,
    replicas: undefined,
  };
}

/** A canceller that does nothing (for work that finished synchronously). */
export const NO_CANCEL: Cancel = () => {};
