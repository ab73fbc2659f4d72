// The analysis part's public surface: the compare and report commands, and what the orchestrator and tools call.

export { claimsCommand, compareCommand, reportCommand } from './analysis-commands.ts';
export { renderSvg } from './charts/charts.ts';
export { attribute, clockOffsetOf, residualMs, roundTrips } from './judge/attribution.ts';
export { simCallTable } from './judge/call-table.ts';
export { comparePoint, formatSummaryLine } from './judge/compare.ts';
export { applyGate, comparisonJson, type GateResult, gateError, parseFailOn } from './judge/gate.ts';
export { type PointDiffs, pairedDiffs } from './judge/paired-comparison.ts';
export { percentileInterval, percentileRanks } from './judge/percentile-ci.ts';
export { type RealPoint, readRealPoint } from './judge/real-row.ts';
export { analyzeRun, everyPoint } from './judge/run-analysis.ts';
export { STEAL_NOTE_SHARE, stealPercent } from './judge/steal.ts';
export { readAttemptsCsv, readCallsCsv, readStatusJson } from './read/raw-files.ts';
export { writeReport } from './write/compare-and-report.ts';
export { compareRunFolder } from './write/write-comparison.ts';
