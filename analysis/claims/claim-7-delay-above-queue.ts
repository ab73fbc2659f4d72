// Claim 7: the study's advice on the hedge delay — it must sit above the latency the queue alone causes,
// or the hedges go to normal calls instead of stragglers. Judged on a sweep of the delay (matrix
// `delaysMs`, points.csv `delay_ms`), e.g. experiments/delay-sweep.json.

import { formatMs, metricSpec } from '../../contract/index.ts';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import type { Check, ClaimPoints, PointRef } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { DEFAULT_BUDGET, NO_HEDGE } from './reference-configs.ts';
import { latencyCheck, rateBoundCheck } from './relations.ts';

/** The light and the busy load of the sweep. */
const LIGHT = 0.5;
const BUSY = 0.85;
/**
 * Hedges of normal calls: more calls hedged than the stragglers (the model's 2 %, which a delay above the
 * normal calls' latency hedges anyway) plus the requests-per-call tolerance.
 */
const NORMAL_HEDGES = DEFAULT_MODEL.stragglerProb + metricSpec('requests_per_call').claimTolerance;

const at = (config: string, load: number, delayMs?: number): PointRef => ({
  config,
  load,
  cancellation: 'ignore',
  ...(delayMs === undefined ? {} : { delayMs }),
});

export const CLAIM_7: ClaimDefinition = {
  claim: 7,
  title: 'delay above the queue',
  statement:
    'Advice: a delay near the median launches hedges of normal calls as soon as the service gets busy — the delay must sit above the latency that the queue alone causes.',
  rule: `cancellation ignore, \`${DEFAULT_BUDGET}\` swept over its delay (\`delay_ms\`, at least two delays) at ${LIGHT} and ${BUSY}, against \`${NO_HEDGE}\` at the same loads, whose p90 is "the latency the queue alone causes" (nine calls in ten wait less) and p50 "the median". At each load, every delay at or below no hedge's p90 hedges normal calls — a hedge rate of at least ${NORMAL_HEDGES} (the ${DEFAULT_MODEL.stragglerProb * 100} % stragglers plus the ${metricSpec('requests_per_call').claimTolerance} tolerance) — and a delay at or below the median does not make p99.9 better than no hedge; at ${LIGHT}, every delay above no hedge's p90 hedges fewer calls than that and makes p99.9 better than no hedge. A delay above the busy load's p90 is reported, not judged: there the budget's own extra load decides (claim 3).`,
  checks(pts: ClaimPoints): Check[] {
    const checks: Check[] = [];
    for (const load of [LIGHT, BUSY]) {
      const plain = pts.get(at(NO_HEDGE, load));
      if (!plain) {
        checks.push(pts.missing(at(NO_HEDGE, load)));
        continue;
      }
      const delays = pts.delays(DEFAULT_BUDGET, load, 'ignore');
      if (delays.length < 2) {
        checks.push({
          verdict: 'inconclusive',
          text: `no delay sweep of ${pts.name(at(DEFAULT_BUDGET, load))} seed ${pts.seed} (delays present: ${delays.length === 0 ? 'none' : `${delays.join(', ')} ms`}; run e.g. experiments/delay-sweep.json)`,
        });
        continue;
      }
      if (plain.p50_ms === null || plain.p90_ms === null || !plain.valid) {
        checks.push({
          verdict: 'inconclusive',
          text: `${pts.name(at(NO_HEDGE, load))} seed ${pts.seed} gives no usable p50/p90 to place the delays`,
        });
        continue;
      }
      const { p50_ms: median, p90_ms: queue } = plain;
      for (const d of delays) {
        const hedged = at(DEFAULT_BUDGET, load, d);
        if (d <= queue) {
          checks.push(rateBoundCheck(pts, hedged, 'hedge_rate', '>=', NORMAL_HEDGES));
          if (d <= median)
            checks.push(latencyCheck(pts, hedged, at(NO_HEDGE, load), 'p999_ms', 'not better'));
        } else if (load === LIGHT) {
          checks.push(rateBoundCheck(pts, hedged, 'hedge_rate', '<', NORMAL_HEDGES));
          checks.push(latencyCheck(pts, hedged, at(NO_HEDGE, load), 'p999_ms', 'better'));
        }
      }
    }
    return checks;
  },
  notes(pts: ClaimPoints): string[] {
    const out: string[] = [];
    for (const load of [LIGHT, BUSY]) {
      const plain = pts.get(at(NO_HEDGE, load));
      if (plain?.p50_ms == null || plain.p90_ms == null) continue;
      // Without a sweep the claim is not judged here, and its figures would only clutter the evidence.
      if (pts.delays(DEFAULT_BUDGET, load, 'ignore').length < 2) continue;
      out.push(
        `note: ${pts.name(at(NO_HEDGE, load))} median ${formatMs(plain.p50_ms)} ms, p90 ${formatMs(plain.p90_ms)} ms`,
      );
      if (load !== BUSY) continue;
      const p90 = plain.p90_ms;
      for (const d of pts.delays(DEFAULT_BUDGET, BUSY, 'ignore').filter((x) => x > p90)) {
        const r = pts.get(at(DEFAULT_BUDGET, BUSY, d));
        const tail = r?.collapsed ? 'collapse' : `${formatMs(r?.p999_ms)} ms`;
        out.push(
          `note: ${pts.name(at(DEFAULT_BUDGET, BUSY, d))} hedge rate ${r?.hedge_rate ?? '–'}, p99.9 ${tail}`,
        );
      }
    }
    return out;
  },
};

/** Claim 7 on the rows of `source`. */
export function delayMustSitAboveQueue(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_7, rows, source);
}
