// comparison.csv: one line per point and metric, sim vs real with the real value's interval, the interval of
// their difference paired by call, the margin, and a verdict. Fixed decimals per metric make the file
// byte-identical for identical inputs.

import { type Metric, VERDICTS, type Verdict } from './comparison-metrics.ts';
import { csvCell } from './csv.ts';
import { csvBodyWithDims, csvFileWithDims, type DimCells, parseDimCells } from './dimension-columns.ts';
import { ComparisonCsvError } from './errors.ts';
import { metricSpec } from './metric-table.ts';
import { formatLoad } from './point-key.ts';

/** Exact order of comparison.csv's base columns; the dimensions' columns follow, as in points.csv. */
const COMPARISON_COLUMNS = [
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
  'diff_ci_low',
  'diff_ci_high',
  'margin',
  'verdict',
] as const;

/** The base columns files had before the paired verdict (no difference interval, no margin): still read. */
const COLUMNS_BEFORE_PAIRING = COMPARISON_COLUMNS.filter(
  (c) => c !== 'diff_ci_low' && c !== 'diff_ci_high' && c !== 'margin',
);

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
  /**
   * Latency: what the harness's own parts add at this percentile, real − real′ (real′ = each call's latency
   * less its harness parts), ms; null for rates, collapse and a foreign service. In files before the paired
   * verdict: the calibration allowance (latency) or the tolerance (rates).
   */
  allowance: number | null;
  /** sim − real. */
  diff: number | null;
  /** The 95 % interval of sim − real′, paired by call; null = not computed (an end null: open). */
  diffCiLow: number | null;
  diffCiHigh: number | null;
  /** The equivalence margin: the interval must lie within ± this for `agrees`. */
  margin: number | null;
  verdict: Verdict;
}

/** The base header line of comparison.csv (no newline). */
export const COMPARISON_HEADER = COMPARISON_COLUMNS.join(',');

function num(x: number | null, metric: Metric): string {
  if (x === null || !Number.isFinite(x)) return '';
  if (metric === 'collapse') return x ? 'true' : 'false';
  const s = x.toFixed(metricSpec(metric).decimals);
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
    num(r.diffCiLow, r.metric),
    num(r.diffCiHigh, r.metric),
    num(r.margin, r.metric),
    r.verdict,
  ].join(',');
}

/** A whole comparison.csv (header + rows, trailing newline), with the dimension columns its rows use. */
export function formatComparisonCsv(rows: readonly ComparisonRow[]): string {
  return csvFileWithDims(COMPARISON_HEADER, rows, formatComparisonRow);
}

/** Parses comparison.csv back into rows (used by tests and by readers of old runs). */
export function parseComparisonCsv(text: string): ComparisonRow[] {
  const before = COLUMNS_BEFORE_PAIRING.join(',');
  const file = csvBodyWithDims(text, COMPARISON_HEADER) ?? csvBodyWithDims(text, before);
  if (file === null)
    throw new ComparisonCsvError(
      `comparison.csv: the header must be exactly "${COMPARISON_HEADER}" (then any dimension columns)`,
    );
  const { body, dims } = file;
  const paired = text.startsWith(COMPARISON_HEADER);
  const width = paired ? COMPARISON_COLUMNS.length : COLUMNS_BEFORE_PAIRING.length;
  return body.map((raw) => {
    // An older line gets empty difference and margin cells, so one layout reads both.
    const c = paired ? raw : [...raw.slice(0, 11), '', '', '', ...raw.slice(11)];
    const metric = c[4] as Metric;
    const n = (s: string) => {
      if (s === '') return null;
      if (s === 'true') return 1;
      if (s === 'false') return 0;
      return Number(s);
    };
    const verdict = c[14] as Verdict;
    if (!VERDICTS.includes(verdict))
      throw new ComparisonCsvError(
        `comparison.csv: unknown verdict "${c[14]}" in "${raw.map(csvCell).join(',')}"`,
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
      diffCiLow: n(c[11]),
      diffCiHigh: n(c[12]),
      margin: n(c[13]),
      verdict,
      ...parseDimCells(dims, raw.slice(width)),
    };
  });
}
