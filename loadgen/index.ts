// The loadgen part's public surface: its CLI command (the generator runs as its own process), self-check and result.

export { createTransport, type Transport } from './http-transport.ts';
export { loadgenCommand } from './loadgen-command.ts';
export type { LoadResult } from './point-result.ts';
export { createScheduler } from './scheduler.ts';
export { selfCheck } from './self-check.ts';
