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
 * The fields a key is made of, with the configuration as its name: a CSV row (dimensions as cells) or a
 * manifest entry (dimensions as `dims`).
 */
interface KeyFields extends DimCells {
  config: string;
  load: number;
  cancellation: Cancellation;
  seed: number;
  dims?: PointDims;
}

/** The join key of a points.csv row (or of anything that names its configuration by name). */
export function rowKey(r: KeyFields): string {
  return pointKey({
    config: { name: r.config },
    load: r.load,
    cancellation: r.cancellation,
    seed: r.seed,
    dims: r.dims ?? dimsOfRow(r),
  });
}
