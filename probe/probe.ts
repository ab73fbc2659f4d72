// createProbe: characterises a service from what a client sees (latency and status): the network floor,
// service times at low load, a ramp of open-loop rates up to the knee, then the model fit (service
// distribution and workers). Bounded by maxRate and maxSeconds; an AbortSignal stops it at once.

import { percentileOf } from '../contract/index.ts';
import type { ModelParams } from '../model/index.ts';
import { trafficLine } from '../runtime/index.ts';
import {
  ProbeErrorsError,
  ProbeInterruptedError,
  ProbeNoKneeError,
  type ProbePartial,
  ProbeTooFastError,
  ProbeTooSlowError,
  ProbeUnreachableError,
} from './errors.ts';
import { fitService, type ServiceFit } from './fit-service.ts';
import { allenCunneenWorkers, fitWorkers, type StepFigures, type WorkersFit } from './fit-workers.ts';
import { noiseLimitMs, noiseVerdict, type ProbeHealth, stepNoise } from './noise.ts';
import { type ProbeOptions, type ResolvedProbeOptions, resolveProbeOptions } from './options.ts';
import { connectRtts, openLoopStep, type StepAnswers, sequential } from './phases.ts';
import { createRequester } from './requester.ts';

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
  workers: WorkersFit;
  /** The fitted model, the matrix `model` shape. */
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

const fmt = (x: number) => x.toFixed(2);

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
  const progress = o.onProgress;
  const measured: string[] = [];
  const data: Record<string, unknown> = {};
  const partial = (): ProbePartial => ({ measured: [...measured], data: { ...data } });
  const req = createRequester(o.target, o.timeoutMs);
  const floorReq = o.floorUrl === '' ? null : createRequester(o.floorUrl, o.timeoutMs);
  try {
    let rtts: number[];
    try {
      rtts = await connectRtts(req.host, req.port, 20, Math.min(o.timeoutMs, 2_000));
    } catch (err) {
      throw new ProbeUnreachableError(o.target, err);
    }
    const connectMs = percentileOf(rtts, 50);
    measured.push(`TCP connect p50 ${fmt(connectMs)} ms over ${rtts.length} connects`);
    progress(measured[measured.length - 1]);

    const low = await sequential(req, {
      maxRequests: o.lowLoadRequests,
      maxMs: o.maxSeconds * 1000 * 0.35,
      signal,
      stopAfterFailures: 20,
      floor: floorReq === null ? undefined : { req: floorReq, every: 10 },
    });
    if (signal.aborted) throw new ProbeInterruptedError(partial());
    const fromUrl = low.floorLatencies.length >= 10;
    const floor = {
      p50Ms: fromUrl ? percentileOf(low.floorLatencies, 50) : connectMs,
      p90Ms: fromUrl ? percentileOf(low.floorLatencies, 90) : percentileOf(rtts, 90),
      samples: fromUrl ? low.floorLatencies.length : rtts.length,
      source: fromUrl ? `GET ${o.floorUrl}` : 'TCP connect',
      noisy: false,
    };
    // A floor whose p90 is over 3× its p50 (and over 1 ms) means the client or the network adds delay of
    // its own: it lands in every fitted figure, so the report says so.
    floor.noisy = floor.p90Ms > 3 * floor.p50Ms && floor.p90Ms > 1;
    data.floor = floor;
    measured.push(`network floor (${floor.source}) p50 ${fmt(floor.p50Ms)} ms over ${floor.samples} samples`);
    const total = low.latencies.length + low.failed;
    const lowP50 = percentileOf(low.latencies, 50);
    const lowLoad = {
      n: low.latencies.length,
      failed: low.failed,
      p50Ms: lowP50,
      p90Ms: percentileOf(low.latencies, 90),
      p99Ms: percentileOf(low.latencies, 99),
      meanMs: low.latencies.reduce((a, b) => a + b, 0) / Math.max(low.latencies.length, 1),
      elapsedMs: low.elapsedMs,
    };
    data.lowLoad = lowLoad;
    const reasons = Object.entries(low.reasons)
      .map(([r, k]) => `${r} ×${k}`)
      .join(', ');
    measured.push(
      `low load (one at a time): ${lowLoad.n} answers, ${low.failed} failed${reasons ? ` (${reasons})` : ''}, p50 ${fmt(lowP50)} ms, p99 ${fmt(lowLoad.p99Ms)} ms in ${(low.elapsedMs / 1000).toFixed(1)} s`,
    );
    progress(measured[measured.length - 1]);
    if (low.timeouts > total / 2) {
      throw new ProbeTooSlowError(
        `${low.timeouts} of ${total} requests took longer than the ${o.timeoutMs} ms timeout even one at a time; raise --timeout-ms if the service is that slow`,
        partial(),
      );
    }
    if (low.failed > Math.max(2, 0.02 * total)) {
      throw new ProbeErrorsError(
        `${o.target} answered ${low.failed} of ${total} requests with errors at the lowest load (${reasons}); probe a URL that answers 2xx`,
        partial(),
      );
    }
    if (lowLoad.n < o.minSamples) {
      throw new ProbeTooSlowError(
        `only ${lowLoad.n} answers in ${(low.elapsedMs / 1000).toFixed(1)} s (${o.minSamples} are needed to fit a distribution); raise --max-seconds`,
        partial(),
      );
    }
    const serviceSamples = low.latencies.map((x) => x - floor.p50Ms);
    const serviceP50 = percentileOf(serviceSamples, 50);
    if (serviceP50 < o.minServiceMs) {
      throw new ProbeTooFastError(
        `latency p50 ${fmt(lowP50)} ms is within ${fmt(serviceP50)} ms of the network floor ${fmt(floor.p50Ms)} ms: no service time to fit (at least ${o.minServiceMs} ms is needed); probe a route that does work`,
        partial(),
      );
    }
    const service = fitService(serviceSamples);
    data.service = service;

    // The ramp: from 40 % of one worker's capacity, ×growth per step, capped at maxRate.
    const steps: RampStep[] = [];
    data.steps = steps;
    const noiseLimit = noiseLimitMs(service.medianMs);
    let rate = Math.min(o.maxRate, (0.4 * 1000) / service.meanMs);
    let knee: string | null = null;
    let suspect = false;
    for (let k = 0; knee === null; k++) {
      if (signal.aborted) throw new ProbeInterruptedError(partial());
      const elapsed = performance.now() - t0;
      if (elapsed + o.stepSeconds * 1000 + o.timeoutMs > o.maxSeconds * 1000) {
        throw new ProbeNoKneeError(
          `--max-seconds ${o.maxSeconds} ran out at ${fmt(steps.at(-1)?.rate ?? 0)} req/s before latency or errors showed the knee; raise --max-seconds`,
          partial(),
        );
      }
      const a = await openLoopStep(req, {
        rate,
        durationMs: o.stepSeconds * 1000,
        seed: o.seed + k,
        timeoutMs: o.timeoutMs,
        maxInflight: o.maxInflight,
        signal,
      });
      if (signal.aborted) throw new ProbeInterruptedError(partial());
      const step = stepFigures(a, noiseLimit);
      // Errors and a runaway queue end the ramp at once; a latency rise is sent once more at the same
      // rate first, since one noisy step on a shared machine looks the same.
      // A latency rise in the first two steps (40–50 % of one worker) must be severe to count: with more
      // than one worker it is the machine's noise, not the queue.
      const hard = a.stopped !== null || a.failed > Math.max(1, 0.01 * a.sent);
      const early = k < 2 && !hard && step.p50Ms < 2 * lowLoad.p50Ms;
      const sign = early ? null : kneeSign(step, a, lowLoad, o);
      if (sign !== null && (hard || suspect)) knee = sign;
      step.knee =
        sign === null ? null : knee === null ? `${sign} (sending the same rate again to confirm)` : sign;
      steps.push(step);
      measured.push(
        `step ${k + 1}: ${fmt(rate)} req/s, ${a.sent} sent, ${a.failed} failed, p50 ${fmt(step.p50Ms)} ms, p90 ${fmt(step.p90Ms)} ms, p99 ${fmt(step.p99Ms)} ms, mean ${fmt(step.meanMs)} ms${step.knee ? ` — knee: ${step.knee}` : ''}${step.noisy ? ` — noisy: ${step.noisy}` : ''}`,
      );
      progress(measured[measured.length - 1]);
      if (knee !== null) break;
      if (sign !== null && !suspect) {
        suspect = true;
        continue;
      }
      suspect = false;
      if (rate >= o.maxRate) {
        throw new ProbeNoKneeError(
          `latency stayed flat up to --max-rate ${o.maxRate} req/s (p50 ${fmt(step.p50Ms)} ms against ${fmt(lowLoad.p50Ms)} ms at low load): either the capacity is above --max-rate (raise it if the service can take it) or the service is not a worker pool with a queue (no knee to fit)`,
          partial(),
        );
      }
      rate = Math.min(o.maxRate, rate * o.stepGrowth);
    }
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
    const model: ModelParams = { workers: workers.workers, ...serviceModel };
    return {
      options: o,
      floor,
      lowLoad,
      steps,
      knee: knee ?? '',
      service,
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

function stepFigures(a: StepAnswers, noiseLimit: number): RampStep {
  const lat = a.latencies;
  const n = lat.length;
  const mean = lat.reduce((x, y) => x + y, 0) / Math.max(n, 1);
  const sd = Math.sqrt(lat.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(n - 1, 1));
  return {
    rate: a.rate,
    n,
    meanMs: mean,
    sdMs: sd,
    p10Ms: percentileOf(lat, 10),
    p50Ms: percentileOf(lat, 50),
    p75Ms: percentileOf(lat, 75),
    p90Ms: percentileOf(lat, 90),
    p99Ms: percentileOf(lat, 99),
    sent: a.sent,
    failed: a.failed,
    timeouts: a.timeouts,
    maxSendLagMs: a.maxSendLagMs,
    sendLagP99Ms: a.sendLagP99Ms,
    loopDelayP99Ms: a.loopDelayP99Ms,
    knee: null,
    noisy: stepNoise(a, noiseLimit),
  };
}

/** The first sign of the knee in a step, or null: errors, a runaway queue, or latency rising. */
function kneeSign(
  s: RampStep,
  a: StepAnswers,
  low: { p50Ms: number; p90Ms: number },
  o: ResolvedProbeOptions,
): string | null {
  if (a.stopped !== null) return a.stopped;
  if (a.failed > Math.max(1, 0.01 * a.sent)) {
    return `${a.failed} of ${a.sent} requests failed (${Object.keys(a.reasons).join(', ')})`;
  }
  if (s.p90Ms > low.p90Ms * (1 + o.kneeP90Rise)) {
    return `p90 ${fmt(s.p90Ms)} ms, over ${fmt(1 + o.kneeP90Rise)}× the low-load ${fmt(low.p90Ms)} ms`;
  }
  if (s.p50Ms > low.p50Ms * (1 + o.kneeP50Rise)) {
    return `p50 ${fmt(s.p50Ms)} ms, over ${fmt(1 + o.kneeP50Rise)}× the low-load ${fmt(low.p50Ms)} ms`;
  }
  return null;
}

function round(x: number, digits: number): number {
  return Number(x.toFixed(digits));
}
