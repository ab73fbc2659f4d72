// Attempts of a call as the server saw them. When grpc-js hedges (hedger grpc-js) the load generator
// never sees the attempts it sent — only the one that answered — so a point's requests per call and hedge
// rate come from the target's records instead: the highest attempt number recorded for each call
// (grpc-js numbers its attempts in order; one cancelled before it reached the server is not counted).
import type { RawAttempts, RawCalls } from './raw-files.ts';

/** Raises each call's `attempts` to the highest attempt the server recorded for it. */
export function learnAttemptsFromServer(calls: RawCalls, attempts: RawAttempts): void {
  const most = new Map<number, number>();
  for (let i = 0; i < attempts.n; i++) {
    const c = attempts.call[i];
    const a = attempts.attempt[i];
    if (a > (most.get(c) ?? 0)) most.set(c, a);
  }
  for (let i = 0; i < calls.n; i++) {
    const seen = most.get(calls.call[i]) ?? 0;
    if (seen > calls.attempts[i]) calls.attempts[i] = seen;
  }
}
