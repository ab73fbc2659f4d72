// The point's self-check of its own measurement: did the sends follow a Poisson process at the target rate,
// and how late were they? A point that fails is marked invalid with the reasons, never reported as good data.

import { type LoadSummary, percentileOfSorted, selfCheckFigure, sendLagReason } from '../contract/index.ts';
import {
  AD_CRITICAL_CASE0,
  andersonDarlingErlang,
  andersonDarlingExponential,
  strideSample,
} from './anderson-darling.ts';

/** Thresholds of the self-check; every one is a setting. */
interface SelfCheckOptions {
  /** Send-lag p99 above this (ms) makes the point invalid. Default 1. */
  sendLagThresholdMs?: number;
  /** Allowed relative error of the achieved rate. Default 0.02. */
  rateTolerance?: number;
  /** Gaps tested (an evenly strided subsample). Default 1000. */
  arrivalSample?: number;
  /**
   * The sends are every K-th arrival of the point's Poisson stream (one of K load generators; default 1):
   * the target rate is the point's rate / K and the gaps follow Erlang(K, point rate), not an exponential.
   */
  clients?: number;
}

// In memory every figure is a number (NaN when there were no samples); JSON writes NaN as null.
type Figures<T> = { [K in keyof T]: T[K] extends number | null ? number : Figures<T[K]> };

/**
 * What the self-check found (the summary's `selfCheck`, declared in contract/point-status.ts);
 * `valid=false` always comes with at least one reason.
 */
export type SelfCheck = Figures<LoadSummary['selfCheck']>;

/**
 * Checks a point's sends. `sendMs[k]`, `intendedMs[k]` are the actual and intended times of the k-th sent
 * call; `targetRatePerMs` is the point's rate (all its load generators together).
 */
export function selfCheck(
  sendMs: ArrayLike<number>,
  intendedMs: ArrayLike<number>,
  targetRatePerMs: number,
  options: SelfCheckOptions = {},
): SelfCheck {
  const thresholdMs = options.sendLagThresholdMs ?? 1;
  const tolerance = options.rateTolerance ?? 0.02;
  const sampleMax = options.arrivalSample ?? 1000;
  const K = options.clients ?? 1;
  const n = sendMs.length;
  const reasons: string[] = [];

  const lags = new Float64Array(n);
  for (let k = 0; k < n; k++) lags[k] = sendMs[k] - intendedMs[k];
  lags.sort();
  const sendLag = {
    n,
    p50Ms: percentileOfSorted(lags, 50),
    p99Ms: percentileOfSorted(lags, 99),
    maxMs: n > 0 ? lags[n - 1] : Number.NaN,
    thresholdMs,
  };
  if (!(sendLag.p99Ms <= thresholdMs)) {
    reasons.push(sendLagReason(sendLag.p99Ms, thresholdMs));
  }

  const sends = Float64Array.from(sendMs).sort();
  const intended = Float64Array.from(intendedMs).sort();
  const achievedPerS = n > 1 ? ((n - 1) / (sends[n - 1] - sends[0])) * 1000 : Number.NaN;
  const schedulePerS = n > 1 ? ((n - 1) / (intended[n - 1] - intended[0])) * 1000 : Number.NaN;
  const targetPerS = (targetRatePerMs / K) * 1000;
  const toleranceVsTarget = Math.max(tolerance, n > 0 ? 3 / Math.sqrt(n) : 1);
  const rate = {
    targetPerS,
    achievedPerS,
    schedulePerS,
    errorVsTarget: achievedPerS / targetPerS - 1,
    errorVsSchedule: achievedPerS / schedulePerS - 1,
    tolerance,
    toleranceVsTarget,
  };
  if (!(Math.abs(rate.errorVsSchedule) <= tolerance)) {
    reasons.push(
      `achieved rate ${selfCheckFigure(achievedPerS)}/s is ${pct(rate.errorVsSchedule)} off the schedule's ${selfCheckFigure(schedulePerS)}/s (allowed ${pct(tolerance)})`,
    );
  }
  if (!(Math.abs(rate.errorVsTarget) <= toleranceVsTarget)) {
    reasons.push(
      `achieved rate ${selfCheckFigure(achievedPerS)}/s is ${pct(rate.errorVsTarget)} off the target ${selfCheckFigure(targetPerS)}/s (allowed ${pct(toleranceVsTarget)})`,
    );
  }

  const gaps = new Float64Array(Math.max(0, n - 1));
  for (let k = 1; k < n; k++) gaps[k - 1] = sends[k] - sends[k - 1];
  const sample = strideSample(gaps, sampleMax);
  const statistic =
    K === 1
      ? andersonDarlingExponential(sample, targetRatePerMs)
      : andersonDarlingErlang(sample, K, targetRatePerMs);
  const critical = 2 * AD_CRITICAL_CASE0['0.01'];
  const arrivals = {
    test:
      K === 1
        ? 'Anderson-Darling A² of send gaps vs Exp(target rate), rate known (Stephens case 0)'
        : `Anderson-Darling A² of send gaps vs Erlang(${K}, point rate) — every ${K}th arrival of the point's Poisson stream — rate known (Stephens case 0)`,
    sampleSize: sample.length,
    statistic,
    critical,
    passed: statistic < critical,
  };
  if (!arrivals.passed) {
    reasons.push(
      Number.isNaN(statistic)
        ? `too few sends (${n}) to test the arrival process`
        : `send gaps are not ${K === 1 ? 'exponential' : `Erlang(${K})`} at the target rate: A² = ${selfCheckFigure(statistic)} ≥ ${critical} (n = ${sample.length})`,
    );
  }
  return { sendLag, rate, arrivals, valid: reasons.length === 0, reasons };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)} %`;
}
