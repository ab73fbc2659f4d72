// The orchestrator's public surface: `hedgebench run` and the run factory tests and tools call.
export { loadMatrixFile, planPoints } from './plan.ts';
export { formatProgress, type ProgressState } from './progress.ts';
export { createRun } from './run.ts';
export type { Run } from './run-options.ts';
export { formatRunSummary } from './summary.ts';
