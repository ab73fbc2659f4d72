// What a probe gives back: every ramp step as reported, everything a complete probe measured and fitted,
// and the probe itself as a command holds it before running it.

import type { ModelParams } from '../model/index.ts';
import type { ErrorFit } from './fit-errors.ts';
import type { ServiceFit } from './fit-service.ts';
import type { StepFigures, WorkersFit } from './fit-workers.ts';
import type { ProbeHealth } from './noise.ts';
import type { ResolvedProbeOptions } from './probe-options.ts';

/** One ramp step as reported. */
export interface RampStep extends StepFigures, ProbeHealth {
  sent: number;
  failed: number;
  timeouts: number;
  maxSendLagMs: number;
  knee: string | null;
  /** Why the step measured the probe as much as the service (noise.ts), or null. */
  noisy: string | null;
}

/** Everything a complete probe measured and fitted. */
export interface ProbeResult {
  options: ResolvedProbeOptions;
  floor: { p50Ms: number; p90Ms: number; samples: number; source: string; noisy: boolean };
  lowLoad: {
    n: number;
    failed: number;
    p50Ms: number;
    p90Ms: number;
    p99Ms: number;
    meanMs: number;
    elapsedMs: number;
  };
  steps: RampStep[];
  /** Why the ramp stopped (the knee's sign). */
  knee: string;
  service: ServiceFit;
  /** The service's own failures at low load (non-2xx answers), or null when it answered every request 2xx. */
  errors: ErrorFit | null;
  workers: WorkersFit;
  /** The fitted model, the matrix `model` shape (with errorProb and errorMs when the service failed). */
  model: ModelParams;
  /** Null when the probe kept up with itself at every step; else what it added, where, and the fix. */
  noise: string | null;
  elapsedMs: number;
}

/** A probe, ready to run against its target. */
export interface Probe {
  /** The first line a command prints: what will be sent, how fast, for how long. */
  readonly plan: string;
  run(signal?: AbortSignal): Promise<ProbeResult>;
}
