// The contract part's public surface: the results format every other part writes or reads — points.csv
// rows and how they are computed, manifest.json, raw files and Redis records, the load generator's point spec
// and status (hash, summary, status.json), point keys, percentiles.

export {
  ATTRIBUTION_COLUMNS,
  type AttributionRow,
  formatAttributionCsv,
} from './attribution-csv.ts';
export { type CollapseEvidence, detectCollapse, MIN_SAMPLES, type Timeline } from './collapse.ts';
export { csvBody, csvCell, csvFile } from './csv.ts';
export {
  csvBodyWithDims,
  csvFileWithDims,
  type DimCells,
  dimCellsOf,
  dimsOfRow,
  parseDimCells,
  rowLabel,
} from './dimension-columns.ts';
export { PointSpecError, StatusJsonError } from './errors.ts';
export { type FormatMsOptions, formatMs } from './format-ms.ts';
export { LatencyHistogram } from './histogram.ts';
export {
  isLatencyMetric,
  LATENCY_METRICS,
  type LatencyColumn,
  type LatencyMetric,
  type LatencyMetricEntry,
  type LatencyMetricSpec,
  latencyMetric,
  latencyMetricOfColumn,
  perLatencyMetric,
} from './latency-metrics.ts';
export {
  type ClientFigures,
  entryConfigName,
  entryKey,
  formatManifest,
  type MachineFacts,
  type Manifest,
  type ManifestData,
  type ManifestPoint,
  type PointEntry,
  parseManifest,
} from './manifest.ts';
export { percentileOf, percentileOfSorted } from './percentile.ts';
export { formatLoad, pointKey, pointSlug, rowKey } from './point-key.ts';
export type { PointRow, PointSource } from './point-row.ts';
export {
  checkPointSpec,
  type FieldLabel,
  POINT_SPEC_FIELDS,
  type PointSpec,
  type PointSpecField,
  parsePointSpec,
  pointSpecJson,
  pointSpecSchema,
} from './point-spec.ts';
export {
  type ClientStatus,
  formatStatusJson,
  formatSummary,
  type LoadProgress,
  type LoadSummary,
  loadSummarySchema,
  type PointStatus,
  parseStatusHash,
  parseStatusJson,
  pointStatusSchema,
  progressFields,
  type StatusHash,
  type SummaryRead,
  statusInflightTimelineMs,
  statusSendLagP99,
} from './point-status.ts';
export { formatPointRow, formatPointsCsv, POINTS_HEADER, parsePointsCsv } from './points-csv.ts';
export { RAW_DIR, rawFilesAt, rawPaths } from './raw-paths.ts';
export {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  ATTEMPT_REPLICA_FIELD,
  type AttemptEnd,
  type AttemptRecord,
  attemptFields,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  type CallOutcome,
  type CallRecord,
} from './records.ts';
export { pointRedisKeys, redisKeys } from './redis-keys.ts';
export { RowBuilder, type RowContext } from './row-builder.ts';
