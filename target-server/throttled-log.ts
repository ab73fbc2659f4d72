// A log that repeats a message at most every `everyMs`, saying how many repeats it held back, so a Redis
// outage writes a few lines to stderr rather than one per reconnect attempt.

/** Wraps `log`; identical consecutive messages within `everyMs` are counted, not printed. */
export function throttledLog(log: (message: string) => void, everyMs = 10_000): (message: string) => void {
  let last = '';
  let lastAt = Number.NEGATIVE_INFINITY;
  let held = 0;
  return (message: string) => {
    const now = Date.now();
    if (message === last && now - lastAt < everyMs) {
      held++;
      return;
    }
    log(held > 0 ? `${message} (and ${held} more like it)` : message);
    last = message;
    lastAt = now;
    held = 0;
  };
}
