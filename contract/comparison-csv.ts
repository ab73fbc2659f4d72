// comparison.csv: one line per point and metric, sim vs real with the real value's interval and a verdict.
// Fixed decimals per metric make the file byte-identical for identical inputs.

import { METRIC_DECIMALS, type Metric, VERDICTS, type Verdict } from './comparison-metrics.ts';
import { csvCell } from './csv.ts';
import { csvBodyWithDims, csvFileWithDims, type DimCells, parseDimCells } from './dimension-columns.ts';
import { ComparisonCsvError } from './errors.ts';
import { formatLoad } from './point-key.ts';

/** Exact order of comparison.csv's base columns; the dimensions' columns follow, as in points.csv. */
export const COMPARISON_COLUMNS = [
  'config',
  'load',
  'cancellation',
  'seed',
  'metric',
  'sim',
  'real',
  'real_ci_low',
  'real_ci_high',
  'allowance',
  'diff',
  'verdict',
] as const;

/** One line of comparison.csv. Numbers are already rounded to the metric's decimals; null = empty cell. */
export interface ComparisonRow extends DimCells {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
  metric: Metric;
  /** For `collapse`: 1 = collapsed, 0 = not. */
  sim: number | null;
  real: number | null;
  realCiLow: number | null;
  /** null with a real value = the interval is open above (too few calls to bound this percentile). */
  realCiHigh: number | null;
  /** Latency: the signed calibration allowance in ms; rates: the absolute tolerance; collapse: null. */
  allowance: number | null;
  /** sim − real. */
  diff: number | null;
  verdict: Verdict;
}

/** The base header line of comparison.csv (no newline). */
export const COMPARISON_HEADER = COMPARISON_COLUMNS.join(',');

function num(x: number | null, metric: Metric): string {
  if (x === null || !Number.isFinite(x)) return '';
  if (metric === 'collapse') return x ? 'true' : 'false';
  const s = x.toFixed(METRIC_DECIMALS[metric]);
  // Never print "-0.000": a zero difference is a zero.
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** One row's base cells as a CSV line (no newline). */
export function formatComparisonRow(r: ComparisonRow): string {
  const diff = r.metric === 'collapse' ? '' : num(r.diff, r.metric);
  return [
    csvCell(r.config),
    formatLoad(r.load),
    r.cancellation,
    String(r.seed),
    r.metric,
    num(r.sim, r.metric),
    num(r.real, r.metric),
    num(r.realCiLow, r.metric),
    num(r.realCiHigh, r.metric),
    r.metric === 'collapse' ? '' : num(r.allowance, r.metric),
    diff,
    r.verdict,
  ].join(',');
}

/** A whole comparison.csv (header + rows, trailing newline), with the dimension columns its rows use. */
export function formatComparisonCsv(rows: readonly ComparisonRow[]): string {
  return csvFileWithDims(COMPARISON_HEADER, rows, formatComparisonRow);
}

/** Parses comparison.csv back into rows (used by tests and by readers of old runs). */
export function parseComparisonCsv(text: string): ComparisonRow[] {
  const file = csvBodyWithDims(text, COMPARISON_HEADER);
  if (file === null)
    throw new ComparisonCsvError(
      `comparison.csv: the header must be exactly "${COMPARISON_HEADER}" (then any dimension columns)`,
    );
  const { body, dims } = file;
  return body.map((c) => {
    const metric = c[4] as Metric;
    const n = (s: string) => {
      if (s === '') return null;
      if (s === 'true') return 1;
      if (s === 'false') return 0;
      return Number(s);
    };
    const verdict = c[11] as Verdict;
    if (!VERDICTS.includes(verdict))
      throw new ComparisonCsvError(
        `comparison.csv: unknown verdict "${c[11]}" in "${c.map(csvCell).join(',')}"`,
      );
    return {
      config: c[0],
      load: Number(c[1]),
      cancellation: c[2] as 'ignore' | 'propagate',
      seed: Number(c[3]),
      metric,
      sim: n(c[5]),
      real: n(c[6]),
      realCiLow: n(c[7]),
      realCiHigh: n(c[8]),
      allowance: n(c[9]),
      diff: n(c[10]),
      verdict,
      ...parseDimCells(dims, c.slice(COMPARISON_COLUMNS.length)),
    };
  });
}
