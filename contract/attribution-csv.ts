// attribution.csv: per real point, the percentiles of each part of a call's latency (the parts are defined
// in analysis/judge/attribution.ts), so a gap between sim and real can be split into harness and model.

import { csvCell } from './csv.ts';
import { csvFileWithDims, type DimCells } from './dimension-columns.ts';

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

/** One row: a part of one point, with its percentiles in ms (null when there is no sample). */
export interface AttributionRow extends DimCells {
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

const num = (x: number | null): string => (x === null || !Number.isFinite(x) ? '' : x.toFixed(3));

/** A whole attribution.csv (header + rows, trailing newline); dimension columns follow when a row sets one. */
export function formatAttributionCsv(rows: readonly AttributionRow[]): string {
  return csvFileWithDims(ATTRIBUTION_COLUMNS.join(','), rows, (r) =>
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
}
