// The point key `config|load|cancellation|seed` (plus any extra dimension off its default) and the slug:
// they name a point's rows, raw files and Redis keys, so every part that joins rows, entries and points
// builds them here.

import { type Cancellation, type PointDims, pointKey } from '../model/index.ts';
import { type DimCells, dimsOfRow } from './dimension-columns.ts';

// model/ needs the key itself (the matrix's calibration point, duplicate loads) and sits below contract/,
// so the one definition of the key, the slug and the load format stays in model/point.ts; this is the
// format's public place for them, and the row key below is built from that definition.
export { formatLoad, pointKey, pointSlug } from '../model/index.ts';

/**
 * A point named as a CSV row names it: the configuration by name, the dimensions off their default as
 * cells. comparison.csv's and the report's lines, and the calibration line, carry it.
 */
export interface PointId extends DimCells {
  config: string;
  load: number;
  cancellation: Cancellation;
  seed: number;
}

/**
 * The join key of a points.csv row, or of anything that names its configuration by name: a manifest entry
 * gives its dimensions as `dims` instead of cells.
 */
export function rowKey(r: PointId & { dims?: PointDims }): string {
  return pointKey({
    config: { name: r.config },
    load: r.load,
    cancellation: r.cancellation,
    seed: r.seed,
    dims: r.dims ?? dimsOfRow(r),
  });
}
