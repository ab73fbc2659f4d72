// The analysis part's public surface: the compare and report commands, and what the orchestrator and tools call.

export { attribute, clockOffsetOf, residualMs } from './attribution.ts';
export { renderSvg } from './charts.ts';
export { claimsCommand, compareCommand, reportCommand } from './commands.ts';
export { formatSummaryLine } from './compare.ts';
export { parseComparisonCsv } from './comparison-csv.ts';
export { applyGate, comparisonJson, type GateResult, gateError, parseFailOn } from './gate.ts';
export { percentileRanks } from './percentile-ci.ts';
export { OUTCOME_CODE, readAttemptsCsv, readCallsCsv, readStatusJson } from './raw-files.ts';
export { readRealPoint, realRowFromRaw } from './real-row.ts';
export { analyzeRun, everyPoint } from './run-analysis.ts';
export { sampleMismatches } from './sample-mismatch.ts';
export {
  AUTO_MARGIN,
  chooseTimeScale,
  type HarnessDelays,
  harnessDelays,
  type TimeScaleChoice,
} from './time-scale-choice.ts';
export { compareRunFolder } from './write-comparison.ts';
export { writeReport } from './write-report.ts';
