// Turns measured calls into a points.csv row. The simulator and the real harness both feed it, so the
// two sources compute every column the same way.

import { formatLoad, type PointDims } from '../model/index.ts';
import { dimCellsOf } from './dimension-columns.ts';
import { LatencyHistogram } from './histogram.ts';
import { LATENCY_METRICS, type LatencyColumn, metricSpec } from './metric-table.ts';
import type { PointRow } from './point-row.ts';
import type { CallOutcome } from './records.ts';

/**
 * What identifies the row and what the builder cannot see in the calls themselves: the row's own
 * identifying columns (`calls` = calls scheduled for the point, warm-up included) and the pool size.
 */
export type RowContext = Pick<PointRow, 'config' | 'load' | 'cancellation' | 'seed' | 'source' | 'calls'> & {
  workers: number;
  dims?: PointDims;
  /**
   * The point counts hedges started on error (model countsHedgesOnError): the row then has
   * `hedged_on_error_rate`; absent or false = the row as it was before that column existed.
   */
  countsHedgesOnError?: boolean;
};

/** What is known only at the end of a point. */
interface RowEnd {
  /** Σ (end − start) of service of every attempt of a measured call, ms (ignore-mode losers included). */
  busyMs: number;
  /** Intended start of the last measured call minus that of the first, ms. */
  spanMs: number;
  collapsed: boolean;
  /** null for the simulator. */
  sendLagP99Ms: number | null;
  valid: boolean;
}

/** Accumulates measured calls (call once per call after warm-up) and produces the row. */
export class RowBuilder {
  readonly latency = new LatencyHistogram();
  private measured = 0;
  private attempts = 0;
  private hedged = 0;
  private skipped = 0;
  private rejected = 0;
  private failed = 0;
  private hedgedOnError = 0;
  /** False once a call's count of hedges on error was unknown (NaN: a calls file without the column). */
  private hedgedOnErrorKnown = true;

  constructor(readonly ctx: RowContext) {}

  /**
   * Adds one measured call. Latency of ok calls only goes into the histogram. `hedgedOnError` (the call's
   * hedges started because an attempt failed) counts only for a point that counts them (ctx).
   */
  addCall(
    latencyMs: number,
    outcome: CallOutcome,
    attempts: number,
    skipped: number,
    hedgedOnError = 0,
  ): void {
    this.measured++;
    if (hedgedOnError > 0) this.hedgedOnError++;
    else if (Number.isNaN(hedgedOnError)) this.hedgedOnErrorKnown = false;
    this.attempts += attempts;
    if (attempts > 1) this.hedged++;
    if (skipped > 0) this.skipped++;
    if (outcome === 'ok') this.latency.record(latencyMs);
    else if (outcome === 'rejected') this.rejected++;
    else this.failed++;
  }

  /** The finished row. Percentiles are empty when no call succeeded. */
  finish(end: RowEnd): PointRow {
    const n = this.measured;
    const h = this.latency;
    const pct = (p: number) => (h.count > 0 ? h.percentile(p) : null);
    const rate = (x: number) => (n > 0 ? x / n : null);
    const { ctx } = this;
    const latency = Object.fromEntries(LATENCY_METRICS.map((m) => [m.column, pct(m.percentile)])) as Record<
      LatencyColumn,
      number | null
    >;
    return {
      config: ctx.config,
      load: Number(formatLoad(ctx.load)),
      cancellation: ctx.cancellation,
      seed: ctx.seed,
      source: ctx.source,
      calls: ctx.calls,
      measured_calls: n,
      p50_ms: latency.p50_ms,
      p90_ms: pct(metricSpec('p90').percentile),
      p99_ms: latency.p99_ms,
      p999_ms: latency.p999_ms,
      max_ms: h.count > 0 ? h.maxMs : null,
      mean_ms: h.count > 0 ? h.meanMs : null,
      requests_per_call: rate(this.attempts),
      hedge_rate: rate(this.hedged),
      skipped_rate: rate(this.skipped),
      rejected_rate: rate(this.rejected),
      failed_rate: rate(this.failed),
      // A collapsed point's workers keep serving after the last arrival, so busy time over the arrival span
      // is not a fraction of anything (it reached 2.83); the column is left empty (results/README.md).
      utilization: end.spanMs > 0 && !end.collapsed ? end.busyMs / (ctx.workers * end.spanMs) : null,
      collapsed: end.collapsed,
      send_lag_p99_ms: end.sendLagP99Ms,
      valid: end.valid,
      ...(ctx.countsHedgesOnError === true
        ? { hedged_on_error_rate: this.hedgedOnErrorKnown ? rate(this.hedgedOnError) : null }
        : {}),
      ...dimCellsOf(ctx.dims),
    };
  }
}
