// The rows of attribution.csv (its format: contract/attribution-csv.ts) from a point's attribution: each
// part's percentiles, the round-trip transit, the latency without the harness's parts, the sim row, and a tied
// point's peer-cancel transit.

import {
  type AttributionRow,
  type LatencyMetric,
  latencyMetric,
  type PointRow,
  percentileOfSorted,
} from '../../contract/index.ts';
import { type Attribution, COMPONENTS } from '../judge/attribution.ts';

/** The percentiles of one sample (copied and sorted here). */
function summarizeSample(
  xs: Float64Array,
): Pick<AttributionRow, 'n' | 'p50' | 'p99' | 'p999' | 'max' | 'mean'> {
  const n = xs.length;
  if (n === 0) return { n, p50: null, p99: null, p999: null, max: null, mean: null };
  const s = Float64Array.from(xs).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += s[i];
  const q = (m: LatencyMetric) => percentileOfSorted(s, latencyMetric(m).percentile);
  return {
    n,
    p50: q('p50'),
    p99: q('p99'),
    p999: q('p99.9'),
    max: s[n - 1],
    mean: sum / n,
  };
}

/** The part of attribution.csv that is a tied point's peer cancel, sent → arrived (no part of any latency). */
const TIE_CANCEL_PART = 'tie_cancel';

/**
 * The rows of one point: each part, then latency, transit, latency without harness, and the sim row; a tied
 * point's also `tie_cancel`, its peer cancels' transit from one server to the other (`tieCancelMs`): a harness
 * figure of the point beside its calls' split, not a part of it.
 */
export function attributionRows(
  id: Omit<AttributionRow, 'part' | 'n' | 'p50' | 'p99' | 'p999' | 'max' | 'mean'>,
  a: Attribution,
  sim: PointRow | undefined,
  tieCancelMs?: Float64Array,
): AttributionRow[] {
  const rows: AttributionRow[] = COMPONENTS.map((c) => ({ ...id, part: c, ...summarizeSample(a.parts[c]) }));
  rows.push({ ...id, part: 'latency', ...summarizeSample(a.latency) });
  rows.push({ ...id, part: 'transit', ...summarizeSample(a.transit) });
  rows.push({ ...id, part: 'latency_without_harness', ...summarizeSample(a.withoutHarness) });
  if (sim) {
    rows.push({
      ...id,
      part: 'sim_latency',
      n: sim.measured_calls,
      p50: sim.p50_ms,
      p99: sim.p99_ms,
      p999: sim.p999_ms,
      max: sim.max_ms,
      mean: sim.mean_ms,
    });
  }
  if (tieCancelMs !== undefined) rows.push({ ...id, part: TIE_CANCEL_PART, ...summarizeSample(tieCancelMs) });
  return rows;
}
