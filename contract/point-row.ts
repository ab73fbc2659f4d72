// The points.csv row: one per point and source (sim | real | sim+net). The simulator and the harness emit
// the same shape, so a comparison is a join on (config, load, cancellation, seed) and the extra
// dimensions, within a source.

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

/**
 * Columns written after the base ones (before the dimensions) only when some row of the file has a value,
 * so a file whose points use none of what they measure is byte-identical to one written before they existed.
 * `hedged_on_error_rate`: calls that started a hedge because an attempt failed (model countsHedgesOnError);
 * `extra_service_share`: the work tied requests add (a tied point's rows; every row of a file with one, sim and
 * real alike).
 */
export const OPTIONAL_POINT_COLUMNS = ['hedged_on_error_rate', 'extra_service_share'] as const;

export type OptionalPointColumn = (typeof OPTIONAL_POINT_COLUMNS)[number];

/** Where a row comes from: the simulator, the real harness, or the simulator with the measured network. */
type PointSource = 'sim' | 'real' | 'sim+net';

/** One row. `null` = the column does not apply (written as an empty cell). Rates are fractions. */
export interface PointRow extends DimCells {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
  /** `sim+net`: the simulator with the run's own transport (its calibration point), see PointSource. */
  source: PointSource;
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
  /**
   * Measured calls that started at least one hedge because an attempt failed / measured calls (the rest of
   * `hedge_rate` hedged because the delay elapsed); absent or null = not counted for this point.
   */
  hedged_on_error_rate?: number | null;
  /**
   * Service time of attempts that did not win their call (measured calls) over all their service time: the
   * extra work. Absent (no column) unless some point of the file is tied; null = not known for this row.
   */
  extra_service_share?: number | null;
}
