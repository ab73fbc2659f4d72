// The extra dimensions' columns (model/dimensions.ts) in points.csv and comparison.csv: appended after a
// file's base columns, and only those that some row of the file uses, so a file whose points all sit at
// the defaults is byte-identical to one written before the dimensions existed.

import { DIMENSIONS, type DimensionColumn, labelWithDims, type PointDims } from '../model/index.ts';
import { csvBody, csvCell, csvFile } from './csv.ts';

/** A row's dimension cells; an absent or null cell is the dimension's default. */
export type DimCells = { [C in DimensionColumn]?: number | string | null };

/** The dimensions a row's cells name. */
export function dimsOfRow(r: DimCells): PointDims {
  const dims: Record<string, number | string> = {};
  for (const d of DIMENSIONS) {
    const v = r[d.column];
    if (v !== undefined && v !== null) dims[d.field] = v;
  }
  return dims as PointDims;
}

/** What tables and charts call a row: its configuration, then its dimensions in words. */
export function rowLabel(r: DimCells & { config: string }): string {
  return labelWithDims(r.config, dimsOfRow(r));
}

/** The cells of a point's dimensions (only those set). */
export function dimCellsOf(dims: PointDims | undefined): DimCells {
  const cells: Record<string, number | string> = {};
  for (const d of DIMENSIONS) {
    const v = dims?.[d.field];
    if (v !== undefined) cells[d.column] = v;
  }
  return cells as DimCells;
}

/** The dimension columns some row uses, in column order. */
export function usedDimColumns(rows: readonly DimCells[]): DimensionColumn[] {
  return DIMENSIONS.filter((d) => rows.some((r) => r[d.column] != null)).map((d) => d.column);
}

/** A row's base line followed by its cells for the given dimension columns. */
export function lineWithDims(baseLine: string, r: DimCells, columns: readonly DimensionColumn[]): string {
  const cells = columns.map((c) => {
    const v = r[c];
    return v === undefined || v === null ? '' : csvCell(String(v));
  });
  return [baseLine, ...cells].join(',');
}

/** A whole CSV file: `base` header plus the dimension columns its rows use, then one line a row. */
export function csvFileWithDims<R extends DimCells>(
  base: string,
  rows: readonly R[],
  baseLine: (r: R) => string,
): string {
  const dims = usedDimColumns(rows);
  return csvFile(
    [base, ...dims].join(','),
    rows.map((r) => lineWithDims(baseLine(r), r, dims)),
  );
}

/**
 * Splits a CSV file whose header is `base` followed by dimension columns in their order: the data lines'
 * cells and those columns; null when the header is anything else.
 */
export function csvBodyWithDims(
  text: string,
  base: string,
): { body: string[][]; dims: DimensionColumn[] } | null {
  const header = text.slice(0, text.indexOf('\n') >>> 0);
  if (header !== base && !header.startsWith(`${base},`)) return null;
  const names = header === base ? [] : header.slice(base.length + 1).split(',');
  const order = DIMENSIONS.map((d) => d.column as string);
  let at = -1;
  for (const n of names) {
    const i = order.indexOf(n);
    if (i <= at) return null;
    at = i;
  }
  const body = csvBody(text, header);
  return body === null ? null : { body, dims: names as DimensionColumn[] };
}

// A cell of a `number-or-string` dimension that reads as a number (`20`, `10.5`; not `p95`).
const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

/** Reads the dimension cells that follow a row's base cells. */
export function parseDimCells(columns: readonly DimensionColumn[], cells: readonly string[]): DimCells {
  const out: Record<string, number | string> = {};
  columns.forEach((c, i) => {
    const raw = cells[i] ?? '';
    if (raw === '') return;
    const spec = DIMENSIONS.find((d) => d.column === c)!;
    out[c] =
      spec.kind === 'number' || (spec.kind === 'number-or-string' && NUMBER.test(raw)) ? Number(raw) : raw;
  });
  return out as DimCells;
}
