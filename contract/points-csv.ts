// Reading and writing points.csv. A metric column has the metric table's decimals (contract/metric-table.ts),
// so identical rows give byte-identical files.

import { csvCell } from './csv.ts';
import {
  csvBodyWithDims,
  csvFileWithDims,
  lineWithDims,
  parseDimCells,
  usedDimColumns,
} from './dimension-columns.ts';
import { PointsCsvError } from './errors.ts';
import { metricOfColumn } from './metric-table.ts';
import { formatLoad } from './point-key.ts';
import {
  OPTIONAL_POINT_COLUMNS,
  type OptionalPointColumn,
  POINT_COLUMNS,
  type PointRow,
} from './point-row.ts';

/** Formats one cell of a points.csv row. */
function cell(row: PointRow, col: (typeof POINT_COLUMNS)[number] | OptionalPointColumn): string {
  const v = row[col];
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '';
    if (col === 'load') return formatLoad(v);
    const d = metricOfColumn(col)?.decimals;
    return d === undefined ? String(v) : v.toFixed(d);
  }
  return csvCell(v);
}

/** The base header line of points.csv (no newline); a file that uses extra dimensions appends their columns. */
export const POINTS_HEADER = POINT_COLUMNS.join(',');

/** The optional columns some row has a value in, in their order. */
function usedOptional(rows: readonly PointRow[]): OptionalPointColumn[] {
  return OPTIONAL_POINT_COLUMNS.filter((c) => rows.some((r) => r[c] != null));
}

/** The base cells of a row and then the given optional ones. */
const baseLineWith = (optional: readonly OptionalPointColumn[]) => (row: PointRow) =>
  [...POINT_COLUMNS.map((c) => cell(row, c)), ...optional.map((c) => cell(row, c))].join(',');

/** One row as a CSV line (no newline), with the optional and dimension columns it uses. */
export function formatPointRow(row: PointRow): string {
  return lineWithDims(baseLineWith(usedOptional([row]))(row), row, usedDimColumns([row]));
}

/** A whole points.csv (header + rows, trailing newline), with the optional and dimension columns its rows use. */
export function formatPointsCsv(rows: readonly PointRow[]): string {
  const optional = usedOptional(rows);
  return csvFileWithDims([POINTS_HEADER, ...optional].join(','), rows, baseLineWith(optional));
}

// The optional columns a header has after the base ones (a prefix of OPTIONAL_POINT_COLUMNS' order).
function optionalInHeader(text: string): OptionalPointColumn[] {
  const header = text.slice(0, text.indexOf('\n') >>> 0);
  if (!header.startsWith(`${POINTS_HEADER},`)) return [];
  const names = header.slice(POINTS_HEADER.length + 1).split(',');
  const out: OptionalPointColumn[] = [];
  for (const c of OPTIONAL_POINT_COLUMNS) if (names[out.length] === c) out.push(c);
  return out;
}

/** Parses a points.csv back into rows (empty cells become null). */
export function parsePointsCsv(text: string): PointRow[] {
  const optional = optionalInHeader(text);
  const file = csvBodyWithDims(text, [POINTS_HEADER, ...optional].join(','));
  if (file === null) {
    throw new PointsCsvError(
      `points.csv: the header must be exactly "${POINTS_HEADER}", optionally followed by ${OPTIONAL_POINT_COLUMNS.join(', ')} and dimension columns`,
    );
  }
  const { body, dims } = file;
  const base = POINT_COLUMNS.length + optional.length;
  return body.map((cells) => {
    const row: Record<string, unknown> = {};
    POINT_COLUMNS.forEach((col, i) => {
      const raw = cells[i] ?? '';
      if (col === 'config' || col === 'cancellation' || col === 'source') row[col] = raw;
      else if (col === 'collapsed' || col === 'valid') row[col] = raw === 'true';
      else row[col] = raw === '' ? null : Number(raw);
    });
    optional.forEach((col, j) => {
      const raw = cells[POINT_COLUMNS.length + j] ?? '';
      row[col] = raw === '' ? null : Number(raw);
    });
    return { ...row, ...parseDimCells(dims, cells.slice(base)) } as PointRow;
  });
}
