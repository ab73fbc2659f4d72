// attribution.csv: per real point, the percentiles of each part of a call's latency (see attribution.ts),
// of the round-trip transit, of the latency without the harness's parts, and the simulator's latency —
// so a gap between sim and real can be split into what the harness added and what the model did.

import { csvCell, type PointRow, percentileOfSorted } from '../contract/index.ts';
import { type Attribution, COMPONENTS } from './attribution.ts';

/** Exact column order of attribution.csv. */
export const ATTRIBUTION_COLUMNS = [
  'config',
  'load',
  'cancellation',
  'seed',
  'part',
  'n',
  'p50_ms',
  'p99_ms',
  'p999_ms',
  'max_ms',
  'mean_ms',
] as const;

/** Rows per point beyond COMPONENTS: the whole latency, the round-trip transit, latency − harness, sim. */
export const ATTRIBUTION_EXTRA_PARTS = [
  'latency',
  'transit',
  'latency_without_harness',
  'sim_latency',
] as const;

/** One row: a part of one point, with its percentiles in ms (null when there is no sample). */
export interface AttributionRow {
  config: string;
  load: string;
  cancellation: string;
  seed: number;
  part: string;
  n: number;
  p50: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
  mean: number | null;
}

/** The percentiles of one sample (copied and sorted here). */
export function summarizeSample(
  xs: Float64Array,
): Pick<AttributionRow, 'n' | 'p50' | 'p99' | 'p999' | 'max' | 'mean'> {
  const n = xs.length;
  if (n === 0) return { n, p50: null, p99: null, p999: null, max: null, mean: null };
  const s = Float64Array.from(xs).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += s[i];
  return {
    n,
    p50: percentileOfSorted(s, 50),
    p99: percentileOfSorted(s, 99),
    p999: percentileOfSorted(s, 99.9),
    max: s[n - 1],
    mean: sum / n,
  };
}

/** The rows of one point: each part, then latency, transit, latency without harness, and the sim row. */
export function attributionRows(
  id: Pick<AttributionRow, 'config' | 'load' | 'cancellation' | 'seed'>,
  a: Attribution,
  sim: PointRow | undefined,
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
  return rows;
}

const num = (x: number | null): string => (x === null || !Number.isFinite(x) ? '' : x.toFixed(3));

/** A whole attribution.csv (header + rows, trailing newline). */
export function formatAttributionCsv(rows: readonly AttributionRow[]): string {
  const lines = rows.map((r) =>
    [
      csvCell(r.config),
      r.load,
      r.cancellation,
      r.seed,
      r.part,
      r.n,
      num(r.p50),
      num(r.p99),
      num(r.p999),
      num(r.max),
      num(r.mean),
    ].join(','),
  );
  return `${[ATTRIBUTION_COLUMNS.join(','), ...lines].join('\n')}\n`;
}
