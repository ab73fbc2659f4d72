// What a finished point reports (the `summary` JSON in the status hash and the CLI's stdout line), and
// where a measured call's CSV line (contract/call-line.ts) goes.

import type { LoadSummary } from '../contract/index.ts';
import type { SelfCheck } from './self-check.ts';

/**
 * The summary of one point as the load generator ran it (contract/point-status.ts declares it); in memory
 * its self-check's figures are numbers (NaN when there were no samples), which JSON writes as null.
 */
export type LoadResult = LoadSummary & { selfCheck: SelfCheck };

/** Where a measured call's CSV line goes (the stream recorder), if anywhere. */
export interface LineSink {
  add(line: string): void;
}
