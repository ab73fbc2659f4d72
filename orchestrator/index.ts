// The orchestrator's public surface: `hedgebench run` and the run factory tests and tools call.
export { autoProbeLanes, measureTimeScale } from './run/auto-time-scale.ts';
export { loadMatrixFile, planPoints } from './run/plan.ts';
export { formatProgress } from './run/progress.ts';
export { createRun } from './run/run.ts';
export { formatRunSummary } from './run/summary.ts';
