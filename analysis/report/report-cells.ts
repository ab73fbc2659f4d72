// The report's table cells: latency, percentages and fixed decimals with a dash for what is unknown, and
// the columns that name a point. Its own file so the report's sections share them without importing
// run-report.ts.
import { formatMs } from '../../contract/index.ts';

/** What a cell shows for a value that is unknown or not measured. */
export const DASH = '—';

/** Latency in ms with about three significant digits. */
export const ms = (v: number | null | undefined) => formatMs(v, { missing: DASH });

/** A fraction as a percentage, e.g. `12.50 %`; — when unknown. */
export function pct(v: number | null | undefined, decimals = 2): string {
  return v === null || v === undefined || !Number.isFinite(v) ? DASH : `${(v * 100).toFixed(decimals)} %`;
}

/** A number with fixed decimals; — when unknown. */
export function fixed(v: number | null | undefined, d: number): string {
  return v === null || v === undefined || !Number.isFinite(v) ? DASH : v.toFixed(d);
}

/** The first columns of every per-point table: what names the point. */
export const POINT_ID_HEAD: readonly string[] = ['configuration', 'load', 'cancellation', 'seed'];
