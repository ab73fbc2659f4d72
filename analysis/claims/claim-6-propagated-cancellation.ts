// Claim 6: when cancellation reaches the server, every hedged configuration gives the same result, and
// the workers are busy far less of the time at 95 % load.

import { formatLoad, formatMs, metricSpec } from '../../contract/index.ts';
import { type ClaimDefinition, evaluateClaim } from './claim.ts';
import { allOf, type Check, type ClaimPoints, type PointRef } from './claim-points.ts';
import type { ClaimRow } from './claim-row.ts';
import { HEDGED, NO_HEDGE } from './reference-configs.ts';
import { latencyCheck, rateOf } from './relations.ts';

/**
 * The study's gap (94 % → 74 % busy, 0.20) less twice the utilisation tolerance: what the gap must be at
 * least so that the timer overshoot on both sides cannot have made it.
 */
const MIN_UTILISATION_GAP = 0.2 - 2 * metricSpec('utilization').claimTolerance;
const RPC_TOL = metricSpec('requests_per_call').claimTolerance;

const at = (config: string, load: number): PointRef => ({ config, load, cancellation: 'propagate' });

function requestsSame(pts: ClaimPoints, a: PointRef, b: PointRef): Check {
  const ra = rateOf(pts, a, 'requests_per_call');
  if ('verdict' in ra) return ra;
  const rb = rateOf(pts, b, 'requests_per_call');
  if ('verdict' in rb) return rb;
  const d = Math.abs(ra.value - rb.value);
  return {
    verdict: d <= RPC_TOL + 1e-9 ? 'holds' : 'fails',
    text: `${pts.name(a)} requests per call ${ra.value} vs ${pts.name(b)} ${rb.value} (expected within ${RPC_TOL})`,
  };
}

function utilisationGap(pts: ClaimPoints, hedged: PointRef, plain: PointRef): Check {
  const h = rateOf(pts, hedged, 'utilization');
  if ('verdict' in h) return h;
  const p = rateOf(pts, plain, 'utilization');
  if ('verdict' in p) return p;
  const gap = Number((p.value - h.value).toFixed(4));
  return {
    verdict: gap >= MIN_UTILISATION_GAP - 1e-9 ? 'holds' : 'fails',
    text: `${pts.name(hedged)} utilisation ${h.value} vs ${pts.name(plain)} ${p.value} (expected at least ${MIN_UTILISATION_GAP} lower)`,
  };
}

function span(xs: readonly (number | null | undefined)[], f: (x: number) => string): string {
  const v = xs.filter((x): x is number => typeof x === 'number');
  return v.length === 0 ? '–' : `${f(Math.min(...v))}–${f(Math.max(...v))}`;
}

/** Every pair of hedged configurations at one load: one check with the ranges when all agree, else the pairs that do not. */
function allAlike(pts: ClaimPoints, load: number): Check[] {
  const pairs: Check[] = [];
  for (let i = 0; i < HEDGED.length; i++) {
    for (let j = i + 1; j < HEDGED.length; j++) {
      const a = at(HEDGED[i], load);
      const b = at(HEDGED[j], load);
      pairs.push(latencyCheck(pts, a, b, 'p99_ms', 'same'), requestsSame(pts, a, b));
    }
  }
  const verdict = allOf(pairs);
  if (verdict !== 'holds') {
    const off = [...new Set(pairs.filter((c) => c.verdict === verdict).map((c) => c.text))];
    return off.map((text) => ({ verdict, text }));
  }
  const rows = HEDGED.map((c) => pts.get(at(c, load)));
  const p99 = span(
    rows.map((r) => r?.p99_ms),
    (x) => formatMs(x),
  );
  const rpc = span(
    rows.map((r) => r?.requests_per_call),
    (x) => x.toFixed(3),
  );
  return [
    {
      verdict,
      text: `${formatLoad(load)} propagate: the ${HEDGED.length} hedged configurations alike (p99 ${p99} ms, requests per call ${rpc})`,
    },
  ];
}

export const CLAIM_6: ClaimDefinition = {
  claim: 6,
  title: 'propagated cancellation: all alike',
  statement:
    'When cancellation reaches the server, every hedged configuration gives the same result at every load, and at 95 % load workers are busy 74 % of the time instead of 94 %.',
  rule: `cancellation propagate, at load 0.95 and every other load present: every two hedged configurations (${HEDGED.map((c) => `\`${c}\``).join(', ')}) give the same result — p99 the same within the latency tolerance and requests per call within ${RPC_TOL}; at 0.95 each hedged configuration's utilisation is at least ${MIN_UTILISATION_GAP} below \`${NO_HEDGE}\`'s (the study's 0.20 less twice the ${metricSpec('utilization').claimTolerance} tolerance). p99.9 is not judged: the configurations' p99.9 differ by up to ~1 ms in the simulation (the third attempt), within 5 % but too close for an interval on the real clock to decide it without ~10⁵ calls per point.`,
  checks(pts: ClaimPoints): Check[] {
    const loads = [...new Set([...pts.loads([...HEDGED], 'propagate'), 0.95])].sort((a, b) => a - b);
    return [
      ...loads.flatMap((l) => allAlike(pts, l)),
      ...HEDGED.map((c) => utilisationGap(pts, at(c, 0.95), at(NO_HEDGE, 0.95))),
    ];
  },
};

/** Claim 6 on the rows of `source`. */
export function propagatedCancellationEvensOut(rows: readonly ClaimRow[], source: string) {
  return evaluateClaim(CLAIM_6, rows, source);
}
