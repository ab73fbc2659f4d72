// The one way hedgebench shows a millisecond figure to a person (tables, summaries, progress, report.md).
// Files for machines (points.csv, comparison.csv) use fixed decimals instead; see points-csv.ts.

/** How to show a ms figure: `cell` = at most one decimal, for narrow table cells. */
interface FormatMsOptions {
  /** Shown for null, undefined, NaN or ±∞ (default '–'). */
  missing?: string;
  /** Table cells: one decimal below 100 ms, none above (28.0, 202), so columns stay narrow. */
  cell?: boolean;
}

/** A ms figure with about three significant digits (0.81, 48.1, 1234), or the compact cell form. */
export function formatMs(v: number | null | undefined, o: FormatMsOptions = {}): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return o.missing ?? '–';
  if (o.cell) return v < 100 ? v.toFixed(1) : v.toFixed(0);
  return v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : v.toFixed(0);
}
