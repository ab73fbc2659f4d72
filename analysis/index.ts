// The analysis part's public surface: rows, percentiles with intervals, sim-vs-real verdicts, the report.

export { allowanceFor, type Calibration, calibrationFromRows, formatCalibrationLine } from './calibration.ts';
export {
  chartName,
  collapseSpec,
  inflightOverTime,
  latencyData,
  latencyOverTime,
  latencyVsLoadSpec,
  renderSvg,
} from './charts.ts';
export { compareCommand, reportCommand } from './commands.ts';
export {
  type ComparisonSummary,
  calibrationRows,
  comparePoint,
  formatSummaryLine,
  LATENCY_METRICS,
  type PointComparisonInput,
  type PointId,
  type RealIntervals,
  summarize,
} from './compare.ts';
export {
  COMPARISON_COLUMNS,
  COMPARISON_HEADER,
  type ComparisonRow,
  formatComparisonCsv,
  parseComparisonCsv,
} from './comparison-csv.ts';
export { AnalysisArgumentError, AnalysisError, RawFileError, RunFolderError } from './errors.ts';
export {
  type PercentileInterval,
  percentileInterval,
  percentileRanks,
} from './percentile-ci.ts';
export {
  OUTCOME_CODE,
  type PointStatus,
  type RawAttempts,
  type RawCalls,
  readAttemptsCsv,
  readCallsCsv,
  readStatusJson,
  statusInflightTimelineMs,
  statusSendLagP99,
} from './raw-files.ts';
export { hasRawCalls, type RealPoint, readRealPoint, realRowFromRaw } from './real-row.ts';
export { type ChartRef, renderReportHtml, renderReportMarkdown, reportBlocks } from './report.ts';
export { type Block, toHtml, toMarkdown } from './report-doc.ts';
export { analyzeRun, type PointAnalysis, type RunAnalysis, recomputedPointRows } from './run-analysis.ts';
export { type RunManifest, readManifest, readPointsCsv } from './run-folder.ts';
export { generatorTimeline, type ServerTimeline, serverTimeline } from './server-timeline.ts';
export {
  latencyVerdict,
  METRICS,
  type Metric,
  pointVerdict,
  RATE_TOLERANCE,
  rateVerdict,
  VERDICTS,
  type Verdict,
  widenedInterval,
} from './verdict.ts';
export { type CompareResult, compareRunFolder, comparisonText } from './write-comparison.ts';
export { type ReportResult, renderCharts, writeReport } from './write-report.ts';
