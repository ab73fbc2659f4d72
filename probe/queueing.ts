// M/G/c queueing formulas the probe fits workers with: Erlang C (the chance an arrival waits in M/M/c)
// and the Allen–Cunneen approximation of the mean wait in M/G/c, which scales M/M/c's by (1 + cs²)/2.

/** Erlang C: probability that an arrival waits in M/M/c with c servers at utilisation rho (< 1). */
export function erlangC(c: number, rho: number): number {
  if (rho <= 0) return 0;
  if (rho >= 1) return 1;
  const a = c * rho;
  // Σ a^k/k! for k < c, and a^c/c!, built term by term (no factorial overflow for large c).
  let term = 1;
  let sum = 1;
  for (let k = 1; k < c; k++) {
    term *= a / k;
    sum += term;
  }
  const top = (term * a) / c / (1 - rho);
  return top / (sum + top);
}

/**
 * Mean queue wait (ms) in M/G/c by Allen–Cunneen: C(c, ρ) · E[S] / (c (1 − ρ)) · (1 + cs²) / 2, where
 * ρ = λ E[S] / c and cs² is the squared coefficient of variation of the service time. Infinite at ρ ≥ 1.
 */
export function meanWaitMs(c: number, ratePerMs: number, meanServiceMs: number, cs2: number): number {
  const rho = (ratePerMs * meanServiceMs) / c;
  if (rho >= 1) return Number.POSITIVE_INFINITY;
  return ((erlangC(c, rho) * meanServiceMs) / (c * (1 - rho))) * ((1 + cs2) / 2);
}
