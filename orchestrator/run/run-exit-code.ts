// A run's exit status, every one from EXIT_CODES: an interruption's signal, else whether every point was
// measured, and then whether the gate over the comparison passed.

import type { GateResult } from '../../analysis/index.ts';
import { EXIT_CODES } from '../../library/index.ts';

/** The status a run's record closes with: interrupted (by SIGTERM or else SIGINT), some point not done, or ok. */
export function runExitCode(
  interruptedBy: string | null,
  counts: { failed: number; pending: number },
): number {
  if (interruptedBy) return interruptedBy === 'SIGTERM' ? EXIT_CODES.sigterm : EXIT_CODES.sigint;
  return counts.failed > 0 || counts.pending > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}

/** The status the command ends with: "measured, but the thresholds failed" only when all was measured. */
export function gatedExitCode(exitCode: number, gate: GateResult | null): number {
  // A failed point says more than a failed gate.
  const gated = exitCode === EXIT_CODES.ok && gate !== null && !gate.passed;
  return gated ? EXIT_CODES.thresholds : exitCode;
}
