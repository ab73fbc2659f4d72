// The Anderson–Darling goodness-of-fit statistic for gaps against an exponential law of KNOWN rate
// (Stephens' "case 0": nothing estimated from the sample), used to check that sends were Poisson — or,
// for one of K load generators sharing a point, against the Erlang law of every K-th Poisson arrival.

/**
 * Asymptotic critical values of A² when the distribution is fully specified (Stephens 1974, case 0).
 * They hold for n ≥ 5 without a small-sample correction.
 */
export const AD_CRITICAL_CASE0 = Object.freeze({ '0.10': 1.933, '0.05': 2.492, '0.01': 3.857 });

// F(x) is clamped away from 0 and 1 so two sends in the same microsecond (a gap of 0) give a large but
// finite statistic instead of Infinity.
const EPS = 1e-12;

/** A² of `gaps` (any order, ms) against Exp(ratePerMs); NaN for fewer than 5 gaps. `gaps` is not modified. */
export function andersonDarlingExponential(gaps: ArrayLike<number>, ratePerMs: number): number {
  // 1 − F(x) = exp(−λx) exactly; F computed from it keeps precision at both ends.
  return andersonDarling(gaps, (x) => Math.exp(-ratePerMs * Math.max(0, x)));
}

/**
 * A² of `gaps` against Erlang(k, ratePerMs), the gap between every k-th arrival of a Poisson stream of
 * that rate (case 0 holds for any fully specified law). NaN for fewer than 5 gaps.
 */
export function andersonDarlingErlang(gaps: ArrayLike<number>, k: number, ratePerMs: number): number {
  return andersonDarling(gaps, (x) => {
    // 1 − F(x) = e^(−λx) Σ_{j<k} (λx)^j / j!
    const lx = ratePerMs * Math.max(0, x);
    let term = 1;
    let sum = 1;
    for (let j = 1; j < k; j++) {
      term *= lx / j;
      sum += term;
    }
    return Math.exp(-lx) * sum;
  });
}

// A² from the survival function 1 − F of the fully specified law.
function andersonDarling(gaps: ArrayLike<number>, survivalOf: (x: number) => number): number {
  const n = gaps.length;
  if (n < 5) return Number.NaN;
  const x = Float64Array.from(gaps).sort();
  const logF = new Float64Array(n);
  const log1mF = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const survival = survivalOf(x[i]);
    const f = Math.min(1 - EPS, Math.max(EPS, 1 - survival));
    logF[i] = Math.log(f);
    log1mF[i] = Math.log(1 - f);
  }
  let s = 0;
  for (let i = 0; i < n; i++) s += (2 * i + 1) * (logF[i] + log1mF[n - 1 - i]);
  return -n - s / n;
}

/** Every k-th element so that at most `max` remain: spaced gaps are close to independent, and the test keeps its power modest. */
export function strideSample(values: ArrayLike<number>, max: number): Float64Array {
  const n = values.length;
  if (n <= max) return Float64Array.from(values);
  const stride = n / max;
  const out = new Float64Array(max);
  for (let k = 0; k < max; k++) out[k] = values[Math.floor(k * stride)];
  return out;
}
