// The loadgen part's public surface: its CLI command (the generator runs as its own process), self-check and result.

export { loadgenCommand } from './command.ts';
export type { PointClock } from './point-clock.ts';
export type { LoadResult } from './result.ts';
export { createScheduler, type Scheduler } from './scheduler.ts';
export { selfCheck } from './self-check.ts';
export { type AttemptOutcome, createTransport, type Transport } from './transport.ts';
