// The analysis part's public surface: the compare and report commands, and what the orchestrator and tools call.

export { compareCommand, reportCommand } from './commands.ts';
export { parseComparisonCsv } from './comparison-csv.ts';
export { percentileRanks } from './percentile-ci.ts';
export { realRowFromRaw } from './real-row.ts';
export { compareRunFolder } from './write-comparison.ts';
export { writeReport } from './write-report.ts';
