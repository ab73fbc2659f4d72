// The harness's check of itself at the target's end: a real point is only evidence about the model when
// the target held its workers as long as the model says, its event loop answered promptly, and the round
// trip between generator and target added little. The load generator checks its own end (send lag,
// Poisson sends, clock exchange); this file checks the rest, from the point's raw files alone.

import { percentileOf } from '../../contract/index.ts';
import type { FidelityThresholds } from '../../model/index.ts';
import type { PointStatus } from '../read/raw-files.ts';
import { type Attribution, roundTrips } from './attribution.ts';

/** Why the target's end or the transit make the point untrustworthy; empty when they do not. */
export function fidelityReasons(
  status: PointStatus | null,
  attribution: Attribution | null,
  t: FidelityThresholds,
): string[] {
  const out: string[] = [];
  const check = status?.target_check;
  const hold = check?.holdErrorMs?.p99;
  if (typeof hold === 'number' && hold > t.holdOvershootP99Ms) {
    out.push(
      `target hold overshoot p99 ${hold.toFixed(2)} ms exceeds fidelity.holdOvershootP99Ms = ${t.holdOvershootP99Ms} ms (workers were held longer than the model's service times)`,
    );
  }
  const delay = check?.responseDelayMs?.p99;
  if (typeof delay === 'number' && delay > t.responseDelayP99Ms) {
    out.push(
      `target response delay p99 ${delay.toFixed(2)} ms exceeds fidelity.responseDelayP99Ms = ${t.responseDelayP99Ms} ms (ready responses waited for the server's event loop)`,
    );
  }
  if (attribution !== null && attribution.n > 0) {
    // The round trip alone: the server's wait before answering has its own check above, and counting it here
    // too would fail a point twice for one delay (one the attribution takes out of every call anyway).
    const p99 = percentileOf(roundTrips(attribution), 99);
    if (p99 > t.transitP99Ms) {
      out.push(
        `request + response transit p99 ${p99.toFixed(2)} ms exceeds fidelity.transitP99Ms = ${t.transitP99Ms} ms (HTTP and event loops between generator and target)`,
      );
    }
  }
  return out;
}
