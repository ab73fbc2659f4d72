// The orchestrator's public surface: `hedgebench run` and the run factory tests and tools call.
export { loadMatrixFile, planPoints } from './plan/plan.ts';
export { formatProgress } from './plan/progress-reporter.ts';
export { autoProbeLanes, measureTimeScale } from './run/auto-time-scale.ts';
export { createRun } from './run/create-run.ts';
export { formatRunSummary } from './run/summary.ts';
