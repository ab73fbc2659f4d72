// The points.csv row: one per point and source (sim | real). The simulator and the harness emit the
// same shape, so a comparison is a join on (config, load, cancellation, seed) and the extra dimensions.

import type { DimCells } from './dimension-columns.ts';

/** Exact order of points.csv's base columns; the dimensions' columns follow (contract/dimension-columns.ts). */
export const POINT_COLUMNS = [
  'config',
  'load',
  'cancellation',
  'seed',
  'source',
  'calls',
  'measured_calls',
  'p50_ms',
  'p90_ms',
  'p99_ms',
  'p999_ms',
  'max_ms',
  'mean_ms',
  'requests_per_call',
  'hedge_rate',
  'skipped_rate',
  'rejected_rate',
  'failed_rate',
  'utilization',
  'collapsed',
  'send_lag_p99_ms',
  'valid',
] as const;

export type PointColumn = (typeof POINT_COLUMNS)[number];

/** One row. `null` = the column does not apply (written as an empty cell). Rates are fractions. */
export interface PointRow extends DimCells {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
  source: 'sim' | 'real';
  calls: number;
  measured_calls: number;
  p50_ms: number | null;
  p90_ms: number | null;
  p99_ms: number | null;
  p999_ms: number | null;
  max_ms: number | null;
  mean_ms: number | null;
  requests_per_call: number | null;
  hedge_rate: number | null;
  skipped_rate: number | null;
  rejected_rate: number | null;
  failed_rate: number | null;
  utilization: number | null;
  collapsed: boolean;
  send_lag_p99_ms: number | null;
  valid: boolean;
}
