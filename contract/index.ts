// The contract part's public surface: every payload between processes and every file of a run folder —
// points.csv rows and how they are computed, comparison.csv, claims.csv, manifest.json, raw files and Redis
// records (call and attempt lines), the load generator's point spec and status (hash, summary, status.json),
// the target's PUT /config body and /work reply, point keys, the metric table and the percentile rule.

export { ATTEMPT_TIME_RESOLUTION_MS, attemptLine, tiedAttemptCells } from './attempt-line.ts';
export { ATTRIBUTION_COLUMNS, type AttributionRow, formatAttributionCsv } from './attribution-csv.ts';
export { callLine } from './call-line.ts';
export {
  CLAIMS_HEADER,
  type ClaimsCsvRow,
  type ClaimVerdict,
  formatClaimsCsv,
  parseClaimsCsv,
} from './claims-csv.ts';
export { type CollapseEvidence, detectCollapse, MIN_SAMPLES, type Timeline } from './collapse.ts';
export {
  COMPARISON_HEADER,
  type ComparisonRow,
  formatComparisonCsv,
  formatComparisonRow,
  parseComparisonCsv,
} from './comparison-csv.ts';
export { CLIENT_METRICS, METRICS, type Metric, VERDICTS, type Verdict } from './comparison-metrics.ts';
export { csvBody, csvCell, csvFile } from './csv.ts';
export { dimCellsOf, dimsOfRow, rowLabel } from './dimension-columns.ts';
export { ClaimsCsvError, ComparisonCsvError, StatusJsonError, WorkReplyError } from './errors.ts';
export { formatMs } from './format-ms.ts';
export { LatencyHistogram } from './histogram.ts';
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
export {
  isLatencyMetric,
  LATENCY_METRICS,
  type LatencyColumn,
  type LatencyMetric,
  latencyMetric,
  latencyMetricOfColumn,
  METRIC_TABLE,
  metricOfColumn,
  metricSpec,
  perLatencyMetric,
} from './metric-table.ts';
export { percentileOf, percentileOfSorted, percentileRank } from './percentile.ts';
export { formatLoad, type PointId, pointKey, pointSlug, rowKey } from './point-key.ts';
export { OPTIONAL_POINT_COLUMNS, type PointRow } from './point-row.ts';
export {
  checkPointSpec,
  POINT_SPEC_FIELDS,
  type PointSpec,
  type PointSpecField,
  parsePointSpec,
  pointSpecJson,
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
  progressFields,
  type StatusHash,
  type SummaryRead,
  selfCheckFigure,
  sendLagReason,
  statusInflightTimelineMs,
  statusSendLagP99,
} from './point-status.ts';
export { formatPointRow, formatPointsCsv, POINTS_HEADER, parsePointsCsv } from './points-csv.ts';
export { RAW_DIR, rawFilesAt, rawPaths } from './raw-paths.ts';
export {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  ATTEMPT_REPLICA_FIELD,
  ATTEMPT_TIED_FIELDS,
  ATTEMPT_TIED_FIELDS_ADDED,
  type AttemptEnd,
  type AttemptRecord,
  attemptFields,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  CALL_HEDGED_ON_ERROR_FIELD,
  type CallOutcome,
  type CallRecord,
  callFields,
  PEER_CANCEL_FATES,
  type PeerCancelFate,
} from './records.ts';
export { pointRedisKeys, redisKeys } from './redis-keys.ts';
export { RowBuilder, type RowContext } from './row-builder.ts';
export { RUN_FILES } from './run-files.ts';
export {
  CALL_OUTCOMES,
  emptySimCalls,
  formatSimCallsCsv,
  OUTCOME_CODE,
  SIM_CALL_FIELDS,
  SIM_CALLS_DIR,
  type SimCalls,
  simCallsPath,
} from './sim-calls.ts';
export { type TargetConfig, type TargetConfigPatch, targetConfigSchema } from './target-config.ts';
export {
  formatPushbackMs,
  formatWorkReply,
  PUSHBACK_HEADER,
  parsePushbackMs,
  parseWorkReply,
  serverMsOfReply,
} from './work-reply.ts';
