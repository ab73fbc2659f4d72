// createProbe: characterises a service from what a client sees (latency and status): the network floor,
// service times at low load, a ramp of open-loop rates up to the knee, then the model fit (service
// distribution and workers). Bounded by maxRate and maxSeconds; an AbortSignal stops it at once.

import { trafficLine } from '../runtime/index.ts';
import { fitModel } from './fit-model.ts';
import { lowLoadPhase } from './low-load-phase.ts';
import { noiseVerdict } from './noise.ts';
import { type ProbeOptions, type ResolvedProbeOptions, resolveProbeOptions } from './probe-options.ts';
import type { Probe, ProbeResult } from './probe-result.ts';
import type { ProbeRun } from './probe-run.ts';
import { rampToKnee } from './ramp.ts';
import { createRequester } from './requester.ts';

/** Creates a probe; the options are checked here, before anything is sent. */
export function createProbe(options: ProbeOptions): Probe {
  const o = resolveProbeOptions(options);
  const plan = trafficLine({
    who: 'probe',
    url: o.target,
    what: `${o.lowLoadRequests} requests one at a time, then open-loop Poisson steps of ${o.stepSeconds} s from low load up to at most ${o.maxRate} req/s, stopping at the knee`,
    bound: `at most ${o.maxSeconds} s in all`,
  });
  return { plan, run: (signal) => runProbe(o, signal ?? new AbortController().signal) };
}

async function runProbe(o: ResolvedProbeOptions, signal: AbortSignal): Promise<ProbeResult> {
  const t0 = performance.now();
  const measured: string[] = [];
  const data: Record<string, unknown> = {};
  const run: ProbeRun = {
    o,
    signal,
    t0,
    measured,
    data,
    partial: () => ({ measured: [...measured], data: { ...data } }),
  };
  const req = createRequester(o.target, o.timeoutMs);
  const floorReq = o.floorUrl === '' ? null : createRequester(o.floorUrl, o.timeoutMs);
  try {
    const { floor, lowLoad, service, errors } = await lowLoadPhase(run, req, floorReq);
    const { steps, knee } = await rampToKnee(run, req, service, lowLoad, errors?.errorProb ?? 0);
    const { workers, model } = fitModel(o, steps, service, lowLoad, floor, errors);
    return {
      options: o,
      floor,
      lowLoad,
      steps,
      knee: knee ?? '',
      service,
      errors,
      workers,
      model,
      noise: noiseVerdict(steps),
      elapsedMs: performance.now() - t0,
    };
  } finally {
    await req.close();
    await floorReq?.close();
  }
}
