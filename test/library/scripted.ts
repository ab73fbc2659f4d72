// Test helper: an Operation whose attempts end after scripted times on a ManualClock, logging every step.
import type { ManualClock, Operation } from '../../library/index.ts';

/** How one attempt ends: after `ms`, with a value (default) or an error, optionally carrying a server pushback. */
export interface Step {
  ms: number;
  error?: unknown;
  pushbackMs?: number;
}

/** One logged event: start, end or cancel of (call, attempt) at a time. */
export interface Entry {
  what: 'start' | 'end' | 'cancel';
  call: number;
  attempt: number;
  at: number;
  reason?: unknown;
}

/** An operation driven by `plan`; values are `c<call>a<attempt>`; `live()` counts attempts not ended. */
export function scripted(clock: ManualClock, plan: (call: number, attempt: number) => Step) {
  const log: Entry[] = [];
  let live = 0;
  const op: Operation<string> = (state, attempt, done) => {
    const call = state.call;
    const step = plan(call, attempt);
    log.push({ what: 'start', call, attempt, at: clock.now() });
    live++;
    const timer = clock.setTimer(() => {
      live--;
      log.push({ what: 'end', call, attempt, at: clock.now() });
      const pushback = step.pushbackMs === undefined ? {} : { pushbackMs: step.pushbackMs };
      if (step.error === undefined) done({ ok: true, value: `c${call}a${attempt}`, ...pushback });
      else done({ ok: false, error: step.error, ...pushback });
    }, step.ms);
    return (reason) => {
      live--;
      log.push({ what: 'cancel', call, attempt, at: clock.now(), reason });
      timer.cancel();
    };
  };
  return { op, log, live: () => live };
}

/** Short form of a log for toEqual: "start 1@0", "cancel 2@30" … (call omitted). */
export function brief(log: readonly Entry[]): string[] {
  return log.map((e) => `${e.what} ${e.attempt}@${e.at}`);
}
