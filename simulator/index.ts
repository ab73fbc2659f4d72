// The simulator part's public surface: one point, a whole matrix, the CLI command and the table printer; the
// simulated transport for in-process use (tests drive it on a ManualClock).

export { SimWorkerError } from './errors.ts';
export { defaultMatrixPath, readMatrixFile } from './matrix-file.ts';
export { packageRoot, runPoints } from './matrix-runner.ts';
export { runPoint } from './run-point.ts';
export type { SimResult } from './run-point-options.ts';
export { SimTransport } from './sim-transport.ts';
export { simulateMatrix } from './simulate.ts';
export { simulateCommand } from './simulate-command.ts';
export { formatSimTables, latencyCell } from './table.ts';
