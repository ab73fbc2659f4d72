// The probe's last step: the model fitted from the low-load service times and the ramp's steps — the
// service distribution rounded to the matrix's precision, the workers that best explain the ramp, and the
// failures the low-load phase saw (probe/fit-errors.ts).

import type { ModelParams } from '../model/index.ts';
import { type ErrorFit, errorModelFields } from './fit-errors.ts';
import type { ServiceFit } from './fit-service.ts';
import { allenCunneenWorkers, fitWorkers, type WorkersFit } from './fit-workers.ts';
import type { ResolvedProbeOptions } from './probe-options.ts';
import type { ProbeResult, RampStep } from './probe-result.ts';

/** The workers fit and the model (the matrix `model` shape) from the steps of the ramp. */
export function fitModel(
  o: ResolvedProbeOptions,
  steps: RampStep[],
  service: ServiceFit,
  lowLoad: ProbeResult['lowLoad'],
  floor: ProbeResult['floor'],
  errors: ErrorFit | null = null,
): { workers: WorkersFit; model: ModelParams } {
  const progress = o.onProgress;
  // Fit on the steps with answers (an errors-only knee step says nothing about the queue).
  const usable = steps.filter((s) => s.n >= 20);
  const serviceModel = {
    medianMs: round(service.medianMs, 3),
    sigma: round(service.sigma, 4),
    stragglerProb: round(service.stragglerProb, 5),
    stragglerMinMs: round(service.stragglerMinMs, 2),
    stragglerMaxMs: round(service.stragglerMaxMs, 2),
  };
  // A pool's knee sits between 35 % and 130 % of its capacity: that brackets the candidates.
  const busy = (steps[steps.length - 1].rate * service.meanMs) / 1000;
  const lo = Math.max(1, Math.floor(busy / 1.3));
  const hi = Math.min(lo + 40, Math.max(lo + 3, Math.ceil(busy / 0.35)));
  const allenCunneen = allenCunneenWorkers(
    usable,
    { latencyMeanMs: lowLoad.meanMs, serviceMeanMs: service.meanMs, cs2: service.cs2 },
    hi * 2,
  );
  progress(`fitting workers: simulating ${hi - lo + 1} candidates (${lo}–${hi}) at ${usable.length} steps`);
  const workers = fitWorkers(usable, serviceModel, {
    overheadMs: floor.p50Ms,
    calls: o.simCalls,
    seed: o.seed,
    lo,
    hi,
    allenCunneen,
  });
  // The workers are fitted on the service alone: fast failures hold a worker for little (errorMs), and the
  // ramp's latencies are those of the 2xx answers.
  const model: ModelParams = { workers: workers.workers, ...serviceModel, ...errorModelFields(errors) };
  return { workers, model };
}

function round(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}
