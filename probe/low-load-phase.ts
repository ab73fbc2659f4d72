// The probe's first phase: the network floor (TCP connects, or a floor URL between requests), then one
// request at a time for service times with no queueing caused by the probe, checked (too slow, errors, too
// fast to fit) and fitted to the service distribution; the non-2xx answers fitted as the model's failures.

import { percentileOf } from '../contract/index.ts';
import {
  ProbeErrorsError,
  ProbeInterruptedError,
  ProbeTooFastError,
  ProbeTooSlowError,
  ProbeUnreachableError,
} from './errors.ts';
import { type ErrorFit, fitErrors, MAX_ERROR_SHARE } from './fit-errors.ts';
import { fitService, type ServiceFit } from './fit-service.ts';
import { connectRtts, sequential } from './phases.ts';
import type { ProbeResult } from './probe-result.ts';
import { fmt, type ProbeRun } from './probe-run.ts';
import type { Requester } from './requester.ts';

/** What the first phase measured: the floor, the low-load figures, and the fitted service times. */
interface LowLoadPhase {
  floor: ProbeResult['floor'];
  lowLoad: ProbeResult['lowLoad'];
  service: ServiceFit;
  /** The service's own failures (non-2xx answers), or null when it answered every request 2xx. */
  errors: ErrorFit | null;
}

/** Measures the floor and the low-load latencies; throws a ProbeError (with what was measured) when they cannot be fitted. */
export async function lowLoadPhase(
  run: ProbeRun,
  req: Requester,
  floorReq: Requester | null,
): Promise<LowLoadPhase> {
  const { o, signal, measured, data, partial } = run;
  const progress = o.onProgress;
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
  // A status is the service failing by itself (fitted as model.errorProb below), up to half the answers; no
  // answer at all (a network error; timeouts are judged above) is something the model cannot describe.
  const statusFailed = low.failedLatencies.length;
  const unanswered = low.failed - statusFailed - low.timeouts;
  if (unanswered > Math.max(2, 0.02 * total) || statusFailed > MAX_ERROR_SHARE * (lowLoad.n + statusFailed)) {
    throw new ProbeErrorsError(
      `${o.target} answered ${low.failed} of ${total} requests with errors at the lowest load (${reasons}); probe a URL that answers 2xx${statusFailed > 0 ? ` at least half the time (the probe fits up to ${MAX_ERROR_SHARE * 100} % failing answers as model.errorProb)` : ''}`,
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
  const errors = fitErrors(low, floor.p50Ms);
  if (errors !== null) {
    data.errors = errors;
    measured.push(
      `failures at low load: ${errors.failed} of ${errors.answers} answers (${errors.statuses}), errorProb ${errors.errorProb}, errorMs ${fmt(errors.errorMs)} ms above the floor`,
    );
    progress(measured[measured.length - 1]);
  }
  return { floor, lowLoad, service, errors };
}
