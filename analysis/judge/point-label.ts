// How the report names a point's configuration: its name plus every dimension the point sets
// ("hedge, default budget · delay 10 ms · over gRPC"), so points that differ only in a dimension never
// share a table row, a chart line or a grid cell. Without dimensions the label is the configuration's name.

import { type PointId, rowLabel } from '../../contract/index.ts';

/** The configuration label of a point. */
export function configLabel(p: { id: PointId }): string {
  return rowLabel(p.id);
}

/** The distinct labels of `points` in their order (the matrix's: configuration, then its dimensions). */
export function configLabels(points: readonly { id: PointId }[]): string[] {
  return [...new Set(points.map(configLabel))];
}
