// The simulator part's public surface: one point, a whole matrix, the CLI command and the table printer.

export { simulateCommand } from './command.ts';
export { SimPointError, SimulatorError, SimWorkerError } from './errors.ts';
export { readMatrixFile } from './matrix-file.ts';
export { defaultWorkerUrl, packageRoot, type RunPointsOptions, runPoints } from './matrix-runner.ts';
export { DEFAULT_MAX_IN_FLIGHT, type RunPointOptions, runPoint, type SimResult } from './run-point.ts';
export { SIM_FILES, type SimulateOutcome, simulateMatrix } from './simulate.ts';
export { formatSimTables, latencyCell } from './table.ts';
export { SimTransport } from './transport.ts';
