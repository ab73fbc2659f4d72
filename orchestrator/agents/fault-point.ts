// Fault injection for tests: HEDGEBENCH_TEST_KILL_AT=STEP[@N] makes the orchestrator SIGKILL itself at the
// N-th time (default 1st) it reaches STEP, so a crash lands at an exact protocol step instead of racing a
// poll. Steps: `agent-recorded:<role>` (in agents.json, not yet started) and `agent-started:<role>`
// (started, its pid not yet recorded). HEDGEBENCH_TEST_HOLD_AT=STEP[@N] names an agent start instead
// (`agent-start:<role>`): that agent is started held (runtime/test-hold.ts) and waits until it is stopped,
// so it cannot finish before the test is ready for it. Unset (always, outside tests) they do nothing.

import { TEST_HOLD_ENV } from '../../runtime/index.ts';

const seen = new Map<string, number>();

/** True the N-th time `step` is reached when the environment variable `variable` names it (STEP[@N]). */
function reached(variable: string, step: string): boolean {
  const at = process.env[variable];
  if (!at) return false;
  const [name, nth] = at.split('@');
  if (name !== step) return false;
  const n = (seen.get(`${variable} ${step}`) ?? 0) + 1;
  seen.set(`${variable} ${step}`, n);
  return n === Number(nth ?? 1);
}

/** Marks a protocol step; dies here when HEDGEBENCH_TEST_KILL_AT names it. */
export function faultPoint(step: string): void {
  if (reached('HEDGEBENCH_TEST_KILL_AT', step)) process.kill(process.pid, 'SIGKILL');
}

/** The environment that starts an agent held at `step` when HEDGEBENCH_TEST_HOLD_AT names it, else null. */
export function holdEnv(step: string): Record<string, string> | null {
  return reached('HEDGEBENCH_TEST_HOLD_AT', step) ? { [TEST_HOLD_ENV]: '1' } : null;
}
