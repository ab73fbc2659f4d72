// The orchestrator's public surface: `hedgebench run` and the run factory tests and tools call.
export {
  AgentStartError,
  OrchestratorError,
  ResultsFolderError,
  ResumeError,
  RunOptionError,
  TargetControlError,
} from './errors.ts';
export { loadMatrixFile, type PlannedPoint, planPoints } from './plan.ts';
export { formatProgress, type ProgressState } from './progress.ts';
export { createRun } from './run.ts';
export { runCommand } from './run-command.ts';
export type { Run, RunOptions, RunOutcome } from './run-options.ts';
export { formatRunSummary } from './summary.ts';
