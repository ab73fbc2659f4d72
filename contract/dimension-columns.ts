// The extra dimensions' columns (model/dimensions.ts) in points.csv and comparison.csv: appended after a
// file's base columns, and only those that some row of the file uses, so a file whose points all sit at
// the defaults is byte-identical to one written before the dimensions existed.

import { DIMENSIONS, type DimensionColumn, labelWithDims, type PointDims } from '../model/index.ts';
import { csvCell } from './csv.ts';

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

/** A row's cells for the given dimension columns. */
export function formatDimCells(r: DimCells, columns: readonly DimensionColumn[]): string[] {
  return columns.map((c) => {
    const v = r[c];
    return v === undefined || v === null ? '' : csvCell(String(v));
  });
}

/** The header with the dimension columns appended (the base header alone when there are none). */
export function headerWithDims(base: string, columns: readonly DimensionColumn[]): string {
  return [base, ...columns].join(',');
}

/**
 * The dimension columns a file's header line appends to `base`, or null when the header is not `base`
 * followed by dimension columns in their order.
 */
export function dimColumnsOfHeader(headerLine: string, base: string): DimensionColumn[] | null {
  if (headerLine === base) return [];
  if (!headerLine.startsWith(`${base},`)) return null;
  const names = headerLine.slice(base.length + 1).split(',');
  const order = DIMENSIONS.map((d) => d.column as string);
  let at = -1;
  for (const n of names) {
    const i = order.indexOf(n);
    if (i <= at) return null;
    at = i;
  }
  return names as DimensionColumn[];
}

/** Reads the dimension cells that follow a row's base cells. */
export function parseDimCells(columns: readonly DimensionColumn[], cells: readonly string[]): DimCells {
  const out: Record<string, number | string> = {};
  columns.forEach((c, i) => {
    const raw = cells[i] ?? '';
    if (raw === '') return;
    const spec = DIMENSIONS.find((d) => d.column === c)!;
    out[c] = spec.kind === 'number' ? Number(raw) : raw;
  });
  return out as DimCells;
}
