// What "better", "worse" and "same result" mean in a claim, on a latency percentile with its interval,
// and the bounds on rates (a rate's label, decimals and tolerance: the metric table,
// contract/metric-table.ts). results/README.md ("claims.csv") states the same rules for readers.
//
// Latency. Two points A and B of one source and seed, at percentile column P. Two real points with raw
// calls draw the same random numbers call by call, so their difference A − B lies in D, its 95 % interval
// paired by call (../judge/block-bootstrap.ts). Otherwise each value has its 95 % order-statistic interval
// [low, high], or is taken as exact (simulated rows), and D = [A.low − B.high, A.high − B.low]. Two margins:
//   m = max(0.5 ms, 2 % of the smaller value) — "better" / "worse": D lies wholly below −m / above +m;
//       "not worse": D lies wholly below +m. 2 % is above the simulation's seed-to-seed spread at a
//       stable point (results/README.md, "claims.csv"), so an exact simulated difference beyond it is no
//       sampling accident; on the real side the interval does that job and the margin asks the difference
//       to matter.
//   e = max(1 ms, 5 % of the smaller value) — "same result": D lies wholly within [−e, +e]. An
//       equivalence margin must be wider than two intervals of one point are, or "same" could never be
//       decided (results/README.md, "claims.csv", says how many calls that takes).
// When D straddles the margin the check is inconclusive, never a guess. A collapsed point is worse than
// one that did not collapse; two collapsed points give the same result (a queue that never drains,
// whatever the percentile says).

import { formatMs, latencyMetricOfColumn, metricSpec } from '../../contract/index.ts';
import { pairedDifferenceInterval } from '../judge/block-bootstrap.ts';
import { roundTo } from '../judge/verdict.ts';
import { type Check, type ClaimPoints, type PointRef, unusable } from './claim-points.ts';
import type { ClaimRow, LatencyColumn } from './claim-row.ts';

/** The margins of the latency relations (see the file comment): better / worse, and same result. */
const LATENCY_TOLERANCE = Object.freeze({
  better: Object.freeze({ relative: 0.02, absoluteMs: 0.5 }),
  same: Object.freeze({ relative: 0.05, absoluteMs: 1 }),
});

/** What a claim expects of A against B. */
export type Expectation = 'better' | 'worse' | 'same' | 'not worse' | 'not better';

/** The margin of a relation for two latency values (ms): `better` (also worse, not worse) or `same`. */
export function latencyTolerance(kind: 'better' | 'same', a: number, b: number): number {
  const t = LATENCY_TOLERANCE[kind];
  return Math.max(t.absoluteMs, t.relative * Math.min(a, b));
}

function interval(row: ClaimRow, col: LatencyColumn, v: number): { low: number; high: number } {
  const ci = row.ci?.[col];
  if (!ci) return { low: v, high: v };
  return {
    low: Math.min(ci.low ?? Number.NEGATIVE_INFINITY, v),
    high: Math.max(ci.high ?? Number.POSITIVE_INFINITY, v),
  };
}

/** `48.7 ms [45.0, 52.1]`, `collapse`, or `48.7 ms` for an exact value. */
function latencyText(row: ClaimRow, col: LatencyColumn): string {
  if (row.collapsed) return 'collapse';
  const v = row[col];
  if (v === null) return 'no successful call';
  const ci = row.ci?.[col];
  if (!ci) return `${formatMs(v)} ms`;
  const lo = ci.low === null ? '−∞' : formatMs(Math.min(ci.low, v));
  const hi = ci.high === null ? '∞' : formatMs(Math.max(ci.high, v));
  return `${formatMs(v)} ms [${lo}, ${hi}]`;
}

/**
 * The interval of A − B at a column (see the file comment): paired by call when both rows have their calls,
 * else the two intervals' difference. It always holds the difference of the values themselves.
 */
function differenceInterval(ra: ClaimRow, rb: ClaimRow, col: LatencyColumn, va: number, vb: number) {
  const sa = ra.sample?.();
  const sb = rb.sample?.();
  const d = sa && sb ? pairedDifferenceInterval(sa, sb, latencyMetricOfColumn(col).percentile) : null;
  if (d) return { dLow: Math.min(d.low, va - vb), dHigh: Math.max(d.high, va - vb), paired: true };
  const ia = interval(ra, col, va);
  const ib = interval(rb, col, vb);
  return { dLow: ia.low - ib.high, dHigh: ia.high - ib.low, paired: false };
}

type Relation = 'better' | 'worse' | 'same';

/** The verdict of an expectation given the difference interval [dLow, dHigh] and the two margins. */
function judgeDifference(expect: Expectation, dLow: number, dHigh: number, m: number, e: number) {
  const v = (holds: boolean, fails: boolean) => (holds ? 'holds' : fails ? 'fails' : 'inconclusive');
  if (expect === 'better') return v(dHigh < -m, dLow >= -m);
  if (expect === 'worse') return v(dLow > m, dHigh <= m);
  if (expect === 'not worse') return v(dHigh <= m, dLow > m);
  if (expect === 'not better') return v(dLow >= -m, dHigh < -m);
  return v(dLow >= -e && dHigh <= e, dHigh < -e || dLow > e);
}

/** The verdict of an expectation when a collapse decides the relation. */
function judgeCollapse(expect: Expectation, rel: Relation) {
  if (expect === 'not worse') return rel === 'worse' ? 'fails' : 'holds';
  if (expect === 'not better') return rel === 'better' ? 'fails' : 'holds';
  return rel === expect ? 'holds' : 'fails';
}

/** What the check found, in words: the expectation, its negation, or why it is undecided. */
const FOUND: Record<Expectation, Record<'holds' | 'fails' | 'inconclusive', string>> = {
  better: { holds: 'better', fails: 'not better', inconclusive: 'undecided (the interval straddles −m)' },
  worse: { holds: 'worse', fails: 'not worse', inconclusive: 'undecided (the interval straddles +m)' },
  'not worse': { holds: 'not worse', fails: 'worse', inconclusive: 'undecided (the interval straddles +m)' },
  'not better': {
    holds: 'not better',
    fails: 'better',
    inconclusive: 'undecided (the interval straddles −m)',
  },
  same: { holds: 'same', fails: 'different', inconclusive: 'undecided (the interval straddles ±e)' },
};

/** Checks that point A is `expect` compared with point B at latency column `col` (see the file comment). */
export function latencyCheck(
  pts: ClaimPoints,
  a: PointRef,
  b: PointRef,
  col: LatencyColumn,
  expect: Expectation,
): Check {
  const ra = pts.get(a);
  const rb = pts.get(b);
  if (!ra) return pts.missing(a);
  if (!rb) return pts.missing(b);
  for (const [p, r] of [
    [a, ra],
    [b, rb],
  ] as const) {
    const why = unusable(pts, p, r);
    if (why) return { verdict: 'inconclusive', text: why };
  }
  const head = `${pts.name(a)} ${latencyMetricOfColumn(col).name} ${latencyText(ra, col)} vs ${pts.name(b)} ${latencyText(rb, col)}`;
  if (ra.collapsed || rb.collapsed) {
    const rel: Relation = ra.collapsed && rb.collapsed ? 'same' : ra.collapsed ? 'worse' : 'better';
    const found = rel === 'same' ? 'both collapsed' : rel;
    return { verdict: judgeCollapse(expect, rel), text: `${head}: ${found} (expected ${expect})` };
  }
  const va = ra[col];
  const vb = rb[col];
  if (va === null || vb === null) {
    return { verdict: 'inconclusive', text: `${head}: no latency to compare` };
  }
  const { dLow, dHigh, paired } = differenceInterval(ra, rb, col, va, vb);
  const margin = latencyTolerance(expect === 'same' ? 'same' : 'better', va, vb);
  const verdict = judgeDifference(
    expect,
    dLow,
    dHigh,
    latencyTolerance('better', va, vb),
    latencyTolerance('same', va, vb),
  );
  const ms = (x: number) => (Number.isFinite(x) ? formatMs(roundTo(x, 3)) : x > 0 ? '∞' : '−∞');
  const d =
    dLow === dHigh
      ? `difference ${ms(dLow)} ms`
      : `difference ${ms(va - vb)} ms in [${ms(dLow)}, ${ms(dHigh)}]${paired ? ' paired by call' : ''}`;
  const name = expect === 'same' ? 'e' : 'm';
  return {
    verdict,
    text: `${head}: ${FOUND[expect][verdict]} (${d}, ${name} = ${ms(margin)} ms; expected ${expect})`,
  };
}

/** Checks a point's collapse verdict against the expected one. */
export function collapseCheck(pts: ClaimPoints, p: PointRef, expected: boolean): Check {
  const r = pts.get(p);
  if (!r) return pts.missing(p);
  const why = unusable(pts, p, r);
  if (why) return { verdict: 'inconclusive', text: why };
  const said = r.collapsed ? 'collapsed' : 'did not collapse';
  return {
    verdict: r.collapsed === expected ? 'holds' : 'fails',
    text: `${pts.name(p)} ${said} (expected ${expected ? 'collapse' : 'no collapse'})`,
  };
}

/** The rate columns a claim may bound. */
type RateColumn = 'requests_per_call' | 'rejected_rate' | 'utilization' | 'hedge_rate';

/** A rate of a row, rounded as points.csv writes it; null when absent or the row is no evidence. */
export function rateOf(
  pts: ClaimPoints,
  p: PointRef,
  col: RateColumn,
): { value: number; row: ClaimRow } | Check {
  const r = pts.get(p);
  if (!r) return pts.missing(p);
  const why = unusable(pts, p, r, false);
  if (why) return { verdict: 'inconclusive', text: why };
  const v = r[col];
  if (v === null) return { verdict: 'inconclusive', text: `${pts.name(p)} has no ${metricSpec(col).label}` };
  return { value: roundTo(v, metricSpec(col).decimals), row: r };
}

const OP_TEXT = { '<=': '≤', '>=': '≥', '<': '<' } as const;

/** Checks `col` of a point against a bound: at most (`<=`), below (`<`) or at least (`>=`). Rates are taken as exact. */
export function rateBoundCheck(
  pts: ClaimPoints,
  p: PointRef,
  col: RateColumn,
  op: '<=' | '>=' | '<',
  bound: number,
): Check {
  const got = rateOf(pts, p, col);
  if ('verdict' in got) return got;
  const ok =
    op === '<='
      ? got.value <= bound + 1e-9
      : op === '<'
        ? got.value < bound - 1e-9
        : got.value >= bound - 1e-9;
  return {
    verdict: ok ? 'holds' : 'fails',
    text: `${pts.name(p)} ${metricSpec(col).label} ${got.value} (expected ${OP_TEXT[op]} ${bound})`,
  };
}
