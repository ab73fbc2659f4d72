// The harness's check of itself at the target's end: a real point is only evidence about the model when
// the target held its workers as long as the model says, its event loop answered promptly, and the round
// trip between generator and target added little. The load generator checks its own end (send lag,
// Poisson sends, clock exchange); this file checks the rest, from the point's raw files alone.

import { percentileOfSorted } from '../contract/index.ts';
import type { Attribution } from './attribution.ts';
import type { PointStatus } from './raw-files.ts';

/** Thresholds of the target-side and transit checks, ms. Each is a matrix setting (`fidelity`). */
export interface FidelityThresholds {
  /** Hold overshoot p99 (target's own histogram of actual − intended hold). */
  holdOvershootP99Ms: number;
  /** Request + response transit p99, including both event loops' delay to read and write. */
  transitP99Ms: number;
  /** Target event-loop delay p99 (a 1 ms timer's lateness): how long a ready response may wait. */
  eventLoopDelayP99Ms: number;
}

/** Defaults: the goals the harness is held to (bench/RESULTS.md says how close this machine gets). */
export const FIDELITY_DEFAULTS: Readonly<FidelityThresholds> = Object.freeze({
  holdOvershootP99Ms: 1,
  transitP99Ms: 2,
  eventLoopDelayP99Ms: 5,
});

/** What status.json's `target_check` holds (the target's /stats of the point, written by the orchestrator). */
interface TargetCheck {
  holdErrorMs?: { count?: number; p99?: number | null };
  eventLoopDelayMs?: { count?: number; p99?: number | null };
}

/** Why the target's end or the transit make the point untrustworthy; empty when they do not. */
export function fidelityReasons(
  status: PointStatus | null,
  attribution: Attribution | null,
  t: FidelityThresholds = FIDELITY_DEFAULTS,
): string[] {
  const out: string[] = [];
  const check = (status as { target_check?: TargetCheck } | null)?.target_check;
  const hold = check?.holdErrorMs?.p99;
  if (typeof hold === 'number' && hold > t.holdOvershootP99Ms) {
    out.push(
      `target hold overshoot p99 ${hold.toFixed(2)} ms exceeds ${t.holdOvershootP99Ms} ms (workers were held longer than the model's service times)`,
    );
  }
  const loop = check?.eventLoopDelayMs?.p99;
  if (typeof loop === 'number' && loop > t.eventLoopDelayP99Ms) {
    out.push(
      `target event-loop delay p99 ${loop.toFixed(2)} ms exceeds ${t.eventLoopDelayP99Ms} ms (responses waited for the server's event loop)`,
    );
  }
  if (attribution !== null && attribution.n > 0) {
    const p99 = percentileOfSorted(Float64Array.from(attribution.transit).sort(), 99);
    if (p99 > t.transitP99Ms) {
      out.push(
        `request + response transit p99 ${p99.toFixed(2)} ms exceeds ${t.transitP99Ms} ms (HTTP and event loops between generator and target)`,
      );
    }
  }
  return out;
}
