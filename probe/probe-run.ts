// What the phases of one probe run share: its options and signal, its start time, the lines measured so
// far and the data filled so far — which an error carries (`partial`) so a stopped probe still reports them.

import type { ProbePartial } from './errors.ts';
import type { ResolvedProbeOptions } from './probe-options.ts';

/** One probe run, as its phases see it. */
export interface ProbeRun {
  o: ResolvedProbeOptions;
  signal: AbortSignal;
  /** performance.now() when the run started: the --max-seconds bound counts from it. */
  t0: number;
  /** One line per figure measured, in order; each is also sent to `o.onProgress`. */
  measured: string[];
  /** The ProbeResult fields filled so far. */
  data: Record<string, unknown>;
  partial: () => ProbePartial;
}

/** A figure in a progress line or a message: two decimals. */
export const fmt = (x: number) => x.toFixed(2);
