// Fault injection for tests: HEDGEBENCH_TEST_KILL_AT=STEP[@N] makes the orchestrator SIGKILL itself at the
// N-th time (default 1st) it reaches STEP, so a crash lands at an exact protocol step instead of racing a
// poll. Steps: `agent-recorded:<role>` (in agents.json, not yet started) and `agent-started:<role>`
// (started, its pid not yet recorded). Unset (always, outside tests) it does nothing.

const seen = new Map<string, number>();

/** Marks a protocol step; dies here when HEDGEBENCH_TEST_KILL_AT names it. */
export function faultPoint(step: string): void {
  const at = process.env.HEDGEBENCH_TEST_KILL_AT;
  if (!at) return;
  const [name, nth] = at.split('@');
  if (name !== step) return;
  const n = (seen.get(step) ?? 0) + 1;
  seen.set(step, n);
  if (n === Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
}
