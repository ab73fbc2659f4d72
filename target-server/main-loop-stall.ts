// Test and benchmark aid: keeps the target's main event loop busy for `ms` every `everyMs`, standing in for
// what a loaded server suffers (long JSON, GC, being descheduled) so the pool modes can be compared under it.

/** A periodic busy stall of the main thread. */
export interface MainLoopStall {
  /** Busy milliseconds per stall. */
  ms: number;
  /** Milliseconds between stall starts. */
  everyMs: number;
}

/** Starts the stalls; returns the function that stops them. */
export function startMainLoopStall(stall: MainLoopStall): () => void {
  const timer = setInterval(() => {
    const end = performance.now() + stall.ms;
    while (performance.now() < end) {
      // Busy on purpose: this is the stall.
    }
  }, stall.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
