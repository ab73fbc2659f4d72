// The time source every policy and model component reads: injected, never ambient.
// SystemClock (real time, Node-side) lives in runtime/; ManualClock (simulated time) lives here.

/** A scheduled callback that can be cancelled; cancelling twice, or after it fired, does nothing. */
export interface TimerHandle {
  cancel(): void;
}

/** Milliseconds with sub-millisecond precision on an arbitrary monotonic origin, plus timers. */
export interface Clock {
  /** Current time in ms (fractional). */
  now(): number;
  /** Calls `cb` once, `delayMs` from now (a negative or zero delay means "as soon as possible"). */
  setTimer(cb: () => void, delayMs: number): TimerHandle;
}
