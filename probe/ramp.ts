// The probe's ramp: open-loop steps from 40 % of one worker's capacity, × growth per step, up to the knee
// (errors, a runaway queue, or latency rising — confirmed by a second step at the same rate), bounded by
// --max-rate and --max-seconds.

import { percentileOf } from '../contract/index.ts';
import { ProbeInterruptedError, ProbeNoKneeError } from './errors.ts';
import type { ServiceFit } from './fit-service.ts';
import { noiseLimitMs, stepNoise } from './noise.ts';
import { openLoopStep, type StepAnswers } from './phases.ts';
import type { ResolvedProbeOptions } from './probe-options.ts';
import type { ProbeResult, RampStep } from './probe-result.ts';
import { fmt, type ProbeRun } from './probe-run.ts';
import type { Requester } from './requester.ts';

/** Ramps the rate up to the knee: every step sent, and the knee's sign. */
export async function rampToKnee(
  run: ProbeRun,
  req: Requester,
  service: ServiceFit,
  lowLoad: ProbeResult['lowLoad'],
  /** The share of requests the service fails by itself (the low-load phase's; 0 = none). */
  errorProb = 0,
): Promise<{ steps: RampStep[]; knee: string | null }> {
  const { o, signal, t0, measured, data, partial } = run;
  const progress = o.onProgress;
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
    const hard = a.stopped !== null || tooManyFailures(a, errorProb);
    const early = k < 2 && !hard && step.p50Ms < 2 * lowLoad.p50Ms;
    const sign = early ? null : kneeSign(step, a, lowLoad, o, errorProb);
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
  return { steps, knee };
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

/**
 * More failures than the service's own share explains: over 1 % of the step (at least one) above what
 * `errorProb` of its requests would give, plus three binomial standard deviations of that count — a service
 * that fails 5 % of requests at every load shows no knee by failing them.
 */
export function tooManyFailures(a: { failed: number; sent: number }, errorProb: number): boolean {
  const expected = errorProb * a.sent;
  const spread = 3 * Math.sqrt(a.sent * errorProb * (1 - errorProb));
  return a.failed - expected > Math.max(1, 0.01 * a.sent) + spread;
}

/** The first sign of the knee in a step, or null: errors, a runaway queue, or latency rising. */
function kneeSign(
  s: RampStep,
  a: StepAnswers,
  low: { p50Ms: number; p90Ms: number },
  o: ResolvedProbeOptions,
  errorProb: number,
): string | null {
  if (a.stopped !== null) return a.stopped;
  if (tooManyFailures(a, errorProb)) {
    const own = errorProb > 0 ? `, against ${(errorProb * 100).toFixed(2)} % at low load` : '';
    return `${a.failed} of ${a.sent} requests failed (${Object.keys(a.reasons).join(', ')}${own})`;
  }
  if (s.p90Ms > low.p90Ms * (1 + o.kneeP90Rise)) {
    return `p90 ${fmt(s.p90Ms)} ms, over ${fmt(1 + o.kneeP90Rise)}× the low-load ${fmt(low.p90Ms)} ms`;
  }
  if (s.p50Ms > low.p50Ms * (1 + o.kneeP50Rise)) {
    return `p50 ${fmt(s.p50Ms)} ms, over ${fmt(1 + o.kneeP50Rise)}× the low-load ${fmt(low.p50Ms)} ms`;
  }
  return null;
}
