// Test ordering for a deployed process: one started with HEDGEBENCH_TEST_HOLD=1 (the orchestrator sets it for
// the one agent start a test names, orchestrator/agents/fault-point.ts) waits at its first step until it is
// stopped, so the test — not how fast a tiny point runs — decides that it is still there. Unset (always,
// outside tests) it costs nothing.

import { setTimeout as sleep } from 'node:timers/promises';

/** The environment variable a held process is started with. */
export const TEST_HOLD_ENV = 'HEDGEBENCH_TEST_HOLD';

/** Waits until `released()` when this process was started held; returns at once otherwise. */
export async function testHold(released: () => boolean, pollMs = 50): Promise<void> {
  if (process.env[TEST_HOLD_ENV] !== '1') return;
  // A pending timer keeps the process alive while it waits; a stop (SIGTERM) releases it.
  while (!released()) await sleep(pollMs);
}
