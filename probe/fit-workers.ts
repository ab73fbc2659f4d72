// Fits the number of parallel workers. Each candidate c is simulated at every ramp step's offered rate
// with the fitted service distribution (the simulator's M/G/c, plain calls) and scored on the quantiles a
// straggler cannot swing (p50, p75, p90); the best c wins. Allen–Cunneen on the means is kept beside it
// as a cross-check. The verdict then asks whether a worker pool explains the ramp at all: in a pool the
// fastest answers stay as fast as at low load (they found a free worker); in a service whose work grows
// with concurrency they do not.

import { percentileOfSorted } from '../contract/index.ts';
import { type ModelParams, meanServiceMs } from '../model/index.ts';
import { runPoint } from '../simulator/index.ts';
import { meanWaitMs } from './queueing.ts';

/** One ramp step as the fit sees it (latencies as the client measured them, ms). */
export interface StepFigures {
  rate: number;
  n: number;
  meanMs: number;
  sdMs: number;
  p10Ms: number;
  p50Ms: number;
  p75Ms: number;
  p90Ms: number;
  p99Ms: number;
}

/** The fitted model's prediction at one step (latency = simulated + the network floor). */
interface StepPrediction {
  rate: number;
  load: number;
  meanMs: number;
  p10Ms: number;
  p50Ms: number;
  p75Ms: number;
  p90Ms: number;
  p99Ms: number;
  collapsed: boolean;
}

/** A candidate's score: Σ over steps and quantiles of (error / tolerance)². */
interface WorkersScore {
  workers: number;
  score: number;
}

/** Simulates `model` at `rate` req/s (plain calls); latencies shifted by `overheadMs`. */
function predictStep(
  model: ModelParams,
  rate: number,
  overheadMs: number,
  calls: number,
  seed: number,
): StepPrediction {
  const load = (rate / 1000) * (meanServiceMs(model) / model.workers);
  const skip = Math.floor(calls * 0.1);
  const lat: number[] = [];
  const r = runPoint(
    { config: { name: 'no hedge' }, load, cancellation: 'ignore', seed, calls, warmupFraction: 0.1, model },
    {
      maxInFlight: 20_000,
      onAttempt: (a) => {
        if (a.call >= skip && a.ended === 'served') lat.push(a.endMs - a.enqueueMs + overheadMs);
      },
    },
  );
  const s = Float64Array.from(lat).sort();
  return {
    rate,
    load,
    meanMs: lat.reduce((x, y) => x + y, 0) / Math.max(lat.length, 1),
    p10Ms: percentileOfSorted(s, 10),
    p50Ms: percentileOfSorted(s, 50),
    p75Ms: percentileOfSorted(s, 75),
    p90Ms: percentileOfSorted(s, 90),
    p99Ms: percentileOfSorted(s, 99),
    collapsed: r.collapse.collapsed || r.truncated,
  };
}

/** The spread of a step's quantiles for a model: sd over short replications as long as the step was. */
interface StepSpread {
  p50: number;
  p75: number;
  p90: number;
}

/** Replications of a step as long as the measured one (n calls), to size the tolerance of its quantiles. */
function stepSpread(model: ModelParams, rate: number, n: number, seed: number, replications = 6): StepSpread {
  const calls = Math.max(100, Math.ceil(n / 0.9));
  const reps = Array.from({ length: replications }, (_, k) =>
    predictStep(model, rate, 0, calls, seed + 1000 + k),
  );
  const sd = (f: (p: StepPrediction) => number) => {
    const xs = reps.map(f);
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  };
  return { p50: sd((p) => p.p50Ms), p75: sd((p) => p.p75Ms), p90: sd((p) => p.p90Ms) };
}

/** Scores one candidate's predictions against the measured steps: Σ (error / tolerance)². */
function scoreSteps(
  steps: readonly StepFigures[],
  preds: readonly StepPrediction[],
  spreads: readonly StepSpread[],
): number {
  let score = 0;
  steps.forEach((s, i) => {
    const p = preds[i];
    const sp = spreads[i];
    for (const [m, q, sd] of [
      [s.p50Ms, p.p50Ms, sp.p50],
      [s.p75Ms, p.p75Ms, sp.p75],
      [s.p90Ms, p.p90Ms, sp.p90],
    ]) {
      // Sampling spread of a step this long, plus 3 % + 0.3 ms for the network and timers.
      const tol = Math.sqrt(sd * sd + (0.03 * q + 0.3) ** 2);
      score += ((m - q) / tol) ** 2;
    }
  });
  return score;
}

/** The workers Allen–Cunneen puts closest to the measured means (the cross-check). */
export function allenCunneenWorkers(
  steps: readonly StepFigures[],
  base: { latencyMeanMs: number; serviceMeanMs: number; cs2: number },
  maxWorkers: number,
): number {
  let best = 1;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let c = 1; c <= maxWorkers; c++) {
    let score = 0;
    for (const s of steps) {
      const pred =
        base.latencyMeanMs + Math.min(meanWaitMs(c, s.rate / 1000, base.serviceMeanMs, base.cs2), 1e6);
      const se = Math.max(s.sdMs / Math.sqrt(Math.max(s.n, 1)), 0.05 * s.meanMs + 0.1);
      score += ((s.meanMs - pred) / se) ** 2;
    }
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

/** Tolerances of the verdict: a quantile misses when off by more than both of these; p10's drift. */
const QUEUE_FIT = { quantileRelErr: 0.25, spreads: 3, p10RelRise: 0.2, p10SlackMs: 0.5 };

/** Judges measured steps against the fitted model's predictions; evidence lines name each miss. */
function judgeWorkers(
  steps: readonly StepFigures[],
  preds: readonly StepPrediction[],
  spreads: readonly StepSpread[],
): string[] {
  const evidence: string[] = [];
  let misses = 0;
  steps.forEach((s, i) => {
    const p = preds[i];
    for (const [name, m, q, sd] of [
      ['p50', s.p50Ms, p.p50Ms, spreads[i].p50],
      ['p90', s.p90Ms, p.p90Ms, spreads[i].p90],
    ] as const) {
      const rel = (m - q) / q;
      const tol = Math.sqrt(sd * sd + (0.03 * q + 0.3) ** 2);
      if (Math.abs(rel) > QUEUE_FIT.quantileRelErr && Math.abs(m - q) > QUEUE_FIT.spreads * tol) {
        misses++;
        evidence.push(
          `at ${s.rate.toFixed(1)} req/s ${name} was ${m.toFixed(2)} ms, the fitted M/G/c says ${q.toFixed(2)} ms (${rel > 0 ? '+' : ''}${(100 * rel).toFixed(0)} %, over ${QUEUE_FIT.spreads}× its spread ${tol.toFixed(2)} ms)`,
        );
      }
    }
    if (s.p10Ms > p.p10Ms * (1 + QUEUE_FIT.p10RelRise) + QUEUE_FIT.p10SlackMs) {
      misses += 2;
      evidence.push(
        `at ${s.rate.toFixed(1)} req/s even the fastest answers slowed: p10 ${s.p10Ms.toFixed(2)} ms against ${p.p10Ms.toFixed(2)} ms for a worker pool (a free worker serves as fast as at low load): service time grows with concurrency`,
      );
    }
  });
  // One missed quantile can be noise at the knee; two misses, or the fastest answers slowing, are not.
  return misses >= 2 ? evidence : [];
}

/** Workers fit: the choice, its neighbours' scores, the per-step prediction and the verdict. */
export interface WorkersFit {
  workers: number;
  /** Allen–Cunneen's choice from the means, for comparison. */
  allenCunneen: number;
  scores: WorkersScore[];
  predictions: StepPrediction[];
  poor: boolean;
  /** Why the fit is poor (empty when it is not). */
  evidence: string[];
}

/**
 * Simulates every candidate in [lo, hi] at every step and keeps the best; `service` is the fitted model
 * without its workers. The same seed for every candidate (common random numbers) keeps the scores smooth.
 */
export function fitWorkers(
  steps: readonly StepFigures[],
  service: Omit<ModelParams, 'workers'>,
  o: { overheadMs: number; calls: number; seed: number; lo: number; hi: number; allenCunneen: number },
): WorkersFit {
  let best: { workers: number; score: number; preds: StepPrediction[]; spreads: StepSpread[] } | null = null;
  const scores: WorkersScore[] = [];
  for (let c = o.lo; c <= o.hi; c++) {
    const model = { ...service, workers: c };
    const preds = steps.map((s) => predictStep(model, s.rate, o.overheadMs, o.calls, o.seed));
    const spreads = steps.map((s) => stepSpread(model, s.rate, s.n, o.seed));
    const score = scoreSteps(steps, preds, spreads);
    scores.push({ workers: c, score });
    if (best === null || score < best.score) best = { workers: c, score, preds, spreads };
  }
  if (best === null) throw new RangeError(`fitWorkers: empty candidate range [${o.lo}, ${o.hi}]`);
  const evidence = judgeWorkers(steps, best.preds, best.spreads);
  return {
    workers: best.workers,
    allenCunneen: o.allenCunneen,
    scores,
    predictions: best.preds,
    poor: evidence.length > 0,
    evidence,
  };
}
