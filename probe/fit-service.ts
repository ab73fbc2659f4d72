// Fits the model's service-time distribution — a log-normal body plus a uniform straggler mixture — to
// service times measured at low load, and says how well it fits (Kolmogorov–Smirnov distance and a
// quantile table), so a service that is not shaped like the model is called a poor fit, not fitted anyway.

import { percentileOfSorted } from '../contract/index.ts';

/** The fitted distribution: model/params.ts's service fields. */
export interface ServiceFit {
  medianMs: number;
  sigma: number;
  stragglerProb: number;
  stragglerMinMs: number;
  stragglerMaxMs: number;
  /** Samples fitted. */
  n: number;
  /** Samples counted as stragglers (above `stragglerThresholdMs`). */
  stragglers: number;
  stragglerThresholdMs: number;
  /** Sample mean and squared coefficient of variation (what the queue fit uses). */
  meanMs: number;
  cs2: number;
  /** Kolmogorov–Smirnov distance between the samples and the fitted distribution. */
  ks: number;
  /** The distance above which the fit is called poor (see POOR_KS). */
  ksLimit: number;
  poor: boolean;
  /** Measured and fitted quantiles, ms. */
  quantiles: { q: number; measuredMs: number; fittedMs: number }[];
  /** The empirical distribution: the measured service time at q = 0.001, 0.002, … 0.999, ms. */
  empiricalMs: number[];
}

/**
 * A KS distance above this (or above the 1 % critical value 1.63/√n, whichever is larger) is a poor fit.
 * Why not the critical value alone: the samples carry the network's and the HTTP stack's jitter, which
 * the model does not, so with thousands of samples even the model's own server would fail a pure test.
 */
const POOR_KS = 0.06;

/** Stragglers are the samples beyond the body's median · e^(BODY_Z·σ): P(body above) ≈ 3·10⁻⁶. */
const BODY_Z = 4.5;

/** Fits the mixture to service times (ms, any order); `n` must be at least 2. */
export function fitService(samplesMs: ArrayLike<number>): ServiceFit {
  const s = Float64Array.from(samplesMs, (x) => Math.max(x, 1e-3)).sort();
  const n = s.length;
  // Body and threshold depend on each other: start from every sample, trim, refit, until stable.
  let cut = n;
  let medianMs = 0;
  let sigma = 0;
  for (let iter = 0; iter < 20; iter++) {
    const body = s.subarray(0, cut);
    medianMs = percentileOfSorted(body, 50);
    const iqr = Math.log(percentileOfSorted(body, 75)) - Math.log(percentileOfSorted(body, 25));
    sigma = Math.max(iqr / 1.349, 1e-3);
    const threshold = medianMs * Math.exp(BODY_Z * sigma);
    let next = cut;
    while (next > 0 && s[next - 1] > threshold) next--;
    while (next < n && s[next] <= threshold) next++;
    if (next === cut) break;
    cut = next;
  }
  const threshold = medianMs * Math.exp(BODY_Z * sigma);
  const k = n - cut;
  let lo = threshold;
  let hi = threshold;
  if (k === 1) lo = hi = s[cut];
  if (k >= 2) {
    // Unbiased ends of a uniform from its sample minimum and maximum.
    const spread = (s[n - 1] - s[cut]) / (k - 1);
    lo = Math.max(0, s[cut] - spread);
    hi = s[n - 1] + spread;
  }
  let sum = 0;
  let sum2 = 0;
  for (const x of s) {
    sum += x;
    sum2 += x * x;
  }
  const meanMs = sum / n;
  const cs2 = Math.max(0, sum2 / n - meanMs * meanMs) / (meanMs * meanMs);
  const fit = { medianMs, sigma, stragglerProb: k / n, stragglerMinMs: lo, stragglerMaxMs: hi };
  const ks = ksDistance(s, (x) => mixtureCdf(fit, x));
  const ksLimit = Math.max(POOR_KS, 1.63 / Math.sqrt(n));
  const qs = [0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, ...(n >= 2000 ? [0.999] : [])];
  return {
    ...fit,
    n,
    stragglers: k,
    stragglerThresholdMs: threshold,
    meanMs,
    cs2,
    ks,
    ksLimit,
    poor: ks > ksLimit,
    empiricalMs: Array.from({ length: 999 }, (_, i) => percentileOfSorted(s, (i + 1) / 10)),
    quantiles: qs.map((q) => ({
      q,
      measuredMs: percentileOfSorted(s, q * 100),
      fittedMs: mixtureQuantile(fit, q),
    })),
  };
}

type Mixture = Pick<ServiceFit, 'medianMs' | 'sigma' | 'stragglerProb' | 'stragglerMinMs' | 'stragglerMaxMs'>;

/** P(S ≤ x) of the mixture. */
function mixtureCdf(m: Mixture, x: number): number {
  const body = x <= 0 ? 0 : normalCdf(Math.log(x / m.medianMs) / m.sigma);
  let straggler = x >= m.stragglerMaxMs ? 1 : 0;
  if (m.stragglerMaxMs > m.stragglerMinMs && x > m.stragglerMinMs && x < m.stragglerMaxMs) {
    straggler = (x - m.stragglerMinMs) / (m.stragglerMaxMs - m.stragglerMinMs);
  }
  return (1 - m.stragglerProb) * body + m.stragglerProb * straggler;
}

/** The q-quantile of the mixture, by bisection on its CDF. */
export function mixtureQuantile(m: Mixture, q: number): number {
  let lo = 0;
  let hi = Math.max(m.stragglerMaxMs, m.medianMs * Math.exp(10 * m.sigma)) + 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (mixtureCdf(m, mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** sup |F_n − F| over an ascending sample. */
function ksDistance(sorted: Float64Array, cdf: (x: number) => number): number {
  const n = sorted.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    d = Math.max(d, Math.abs((i + 1) / n - f), Math.abs(f - i / n));
  }
  return d;
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 erf, error below 1.5·10⁻⁷). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
