// Reading and writing points.csv. Fixed decimals make the file byte-identical for identical rows.

import { csvCell, csvFile } from './csv.ts';
import {
  csvBodyWithDims,
  csvFileWithDims,
  lineWithDims,
  parseDimCells,
  usedDimColumns,
} from './dimension-columns.ts';
import { PointsCsvError } from './errors.ts';
import { LATENCY_METRICS } from './latency-metrics.ts';
import { EXTRA_POINT_COLUMNS, type ExtraPointColumn, POINT_COLUMNS, type PointRow } from './point-row.ts';

const DECIMALS: Partial<Record<keyof PointRow, number>> = {
  load: 2,
  ...Object.fromEntries(LATENCY_METRICS.map((m) => [m.column, m.decimals])),
  p90_ms: 3,
  max_ms: 3,
  mean_ms: 3,
  requests_per_call: 4,
  hedge_rate: 5,
  skipped_rate: 5,
  rejected_rate: 5,
  failed_rate: 5,
  utilization: 4,
  send_lag_p99_ms: 3,
  extra_service_share: 5,
};

/** Formats one cell of a points.csv row. */
function cell(row: PointRow, col: (typeof POINT_COLUMNS)[number] | ExtraPointColumn): string {
  const v = row[col];
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    const d = DECIMALS[col];
    if (!Number.isFinite(v)) return '';
    return d === undefined ? String(v) : v.toFixed(d);
  }
  return csvCell(v);
}

/** The base header line of points.csv (no newline); a file that uses extra dimensions appends their columns. */
export const POINTS_HEADER = POINT_COLUMNS.join(',');

const baseLine = (row: PointRow) => POINT_COLUMNS.map((c) => cell(row, c)).join(',');

/** The extra columns some row carries (a key present, even null), in their order. */
function usedExtraColumns(rows: readonly PointRow[]): ExtraPointColumn[] {
  return EXTRA_POINT_COLUMNS.filter((c) => rows.some((r) => r[c] !== undefined));
}

/** A row's line: its base cells, the given dimension columns' and extra columns' cells. */
function fullLine(row: PointRow, dims: ReturnType<typeof usedDimColumns>, extra: ExtraPointColumn[]) {
  const line = lineWithDims(baseLine(row), row, dims);
  return extra.length === 0 ? line : [line, ...extra.map((c) => cell(row, c))].join(',');
}

/** One row as a CSV line (no newline), with the dimension and extra columns it uses. */
export function formatPointRow(row: PointRow): string {
  return fullLine(row, usedDimColumns([row]), usedExtraColumns([row]));
}

/**
 * A whole points.csv (header + rows, trailing newline), with the dimension columns its rows use, then the
 * extra columns (EXTRA_POINT_COLUMNS) some row carries: a file without tied points is as it always was.
 */
export function formatPointsCsv(rows: readonly PointRow[]): string {
  const extra = usedExtraColumns(rows);
  if (extra.length === 0) return csvFileWithDims(POINTS_HEADER, rows, baseLine);
  const dims = usedDimColumns(rows);
  return csvFile(
    [POINTS_HEADER, ...dims, ...extra].join(','),
    rows.map((r) => fullLine(r, dims, extra)),
  );
}

/** Parses a points.csv back into rows (empty cells become null). */
export function parsePointsCsv(text: string): PointRow[] {
  const { rest, extra } = splitExtraColumns(text);
  const file = csvBodyWithDims(rest, POINTS_HEADER);
  if (file === null) {
    throw new PointsCsvError(
      `points.csv: the header must be exactly "${POINTS_HEADER}", optionally followed by dimension columns and then ${EXTRA_POINT_COLUMNS.join(', ')}`,
    );
  }
  const { body, dims } = file;
  const at = POINT_COLUMNS.length + dims.length;
  return body.map((cells) => {
    const row: Record<string, unknown> = {};
    POINT_COLUMNS.forEach((col, i) => {
      const raw = cells[i] ?? '';
      if (col === 'config' || col === 'cancellation' || col === 'source') row[col] = raw;
      else if (col === 'collapsed' || col === 'valid') row[col] = raw === 'true';
      else row[col] = raw === '' ? null : Number(raw);
    });
    extra.forEach((col, i) => {
      const raw = cells[at + i] ?? '';
      row[col] = raw === '' ? null : Number(raw);
    });
    return { ...row, ...parseDimCells(dims, cells.slice(POINT_COLUMNS.length, at)) } as PointRow;
  });
}

// The extra columns ending the header (in EXTRA_POINT_COLUMNS order) and the text with its header without them.
function splitExtraColumns(text: string): { rest: string; extra: ExtraPointColumn[] } {
  const nl = text.indexOf('\n');
  const header = nl < 0 ? text : text.slice(0, nl);
  const names = header.split(',');
  let n = names.length;
  for (let j = EXTRA_POINT_COLUMNS.length - 1; j >= 0 && n > 0; j--)
    if (names[n - 1] === EXTRA_POINT_COLUMNS[j]) n--;
  if (n === names.length) return { rest: text, extra: [] };
  const extra = names.slice(n) as ExtraPointColumn[];
  return { rest: names.slice(0, n).join(',') + (nl < 0 ? '' : text.slice(nl)), extra };
}
