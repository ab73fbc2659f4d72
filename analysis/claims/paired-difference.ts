// The interval of a difference of percentiles between two real points of one seed, paired by call. Both
// points draw the same arrivals and service times for a call (common random numbers), so their latencies
// move together call by call, and the sampling error of A − B is far smaller than each point's own: the
// claims' unpaired rule, [A.low − B.high, A.high − B.low], adds two intervals as if the points were
// independent, and leaves a "same" or "not worse" undecided that the calls themselves decide.
//
// Method: a block bootstrap over call indices. The measured calls are cut into blocks of consecutive
// indices (√N calls each, so the queue's memory — a busy period, a straggler holding a worker — stays
// within a block); each resample gives every block a Poisson(1) weight, the same block the same weight on
// both sides, and takes each side's weighted percentile by the nearest-rank rule of contract/percentile.ts.
// The 2.5 % and 97.5 % of the resampled differences bound the difference. Deterministic: the weights come
// from the model's counter-based generator under a fixed key, so a claim reads the same every time.

import { uniform } from '../../model/index.ts';

/** A real point's measured successful calls: each call's index and latency (model ms), in any order. */
export interface CallSample {
  call: Float64Array;
  latencyMs: Float64Array;
}

/** Resamples a paired interval takes. */
const PAIRED_RESAMPLES = 1000;
/** The interval's level. */
const LEVEL = 0.95;
// The generator's key of the weights: a seed and stream no point of the model uses (its streams are 1–21).
const WEIGHT_SEED = 0x5eed;
const WEIGHT_STREAM = 64;
// Poisson(1)'s cumulative distribution up to 7, for weights by inversion (a weight above 8 has odds ~1e-6).
const POISSON_1_CDF: number[] = [];
for (let k = 0, pk = Math.exp(-1), cum = 0; k < 8; k++, pk /= k) {
  cum += pk;
  POISSON_1_CDF.push(cum);
}

/** A side of the pair, ready to resample: its latencies ascending with each one's block. */
interface Side {
  latency: Float64Array;
  block: Int32Array;
  /** Calls per block, for the total weight of a resample. */
  perBlock: Float64Array;
}

function sideOf(s: CallSample, first: number, width: number, blocks: number): Side {
  const n = s.latencyMs.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => s.latencyMs[a] - s.latencyMs[b]);
  const latency = new Float64Array(n);
  const block = new Int32Array(n);
  const perBlock = new Float64Array(blocks);
  for (let j = 0; j < n; j++) {
    const i = order[j];
    latency[j] = s.latencyMs[i];
    block[j] = Math.floor((s.call[i] - first) / width);
    perBlock[block[j]]++;
  }
  return { latency, block, perBlock };
}

/** The nearest-rank p-th percentile of a side under block weights `w` (NaN when every call weighs 0). */
function weightedPercentile(side: Side, w: Float64Array, p: number): number {
  let total = 0;
  for (let b = 0; b < w.length; b++) total += w[b] * side.perBlock[b];
  if (total === 0) return Number.NaN;
  // The rank contract/percentile.ts takes, on weights: the first value whose cumulative weight reaches it.
  const rank = Math.max(1, Math.floor((p / 100) * total + 0.5));
  const n = side.latency.length;
  if (p <= 50) {
    let cum = 0;
    for (let j = 0; j < n; j++) {
      cum += w[side.block[j]];
      if (cum >= rank) return side.latency[j];
    }
    return side.latency[n - 1];
  }
  // From the top: the value sits where the weight above it first reaches total − rank + 1.
  let above = 0;
  for (let j = n - 1; j >= 0; j--) {
    above += w[side.block[j]];
    if (above > total - rank) return side.latency[j];
  }
  return side.latency[0];
}

/**
 * The 95 % interval of percentile p of A minus percentile p of B, paired by call index (see the file
 * comment); null when either sample is empty.
 */
export function pairedDifferenceInterval(
  a: CallSample,
  b: CallSample,
  p: number,
  resamples = PAIRED_RESAMPLES,
): { low: number; high: number } | null {
  if (a.call.length === 0 || b.call.length === 0) return null;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of [a, b]) {
    for (const c of s.call) {
      if (c < first) first = c;
      if (c > last) last = c;
    }
  }
  const span = last - first + 1;
  const width = Math.ceil(Math.sqrt(span));
  const blocks = Math.ceil(span / width);
  const sa = sideOf(a, first, width, blocks);
  const sb = sideOf(b, first, width, blocks);
  const w = new Float64Array(blocks);
  const diffs: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < blocks; k++) {
      const u = uniform(WEIGHT_SEED, WEIGHT_STREAM, r, k);
      let x = 0;
      while (x < POISSON_1_CDF.length && u >= POISSON_1_CDF[x]) x++;
      w[k] = x;
    }
    const d = weightedPercentile(sa, w, p) - weightedPercentile(sb, w, p);
    if (!Number.isNaN(d)) diffs.push(d);
  }
  if (diffs.length === 0) return null;
  diffs.sort((x, y) => x - y);
  const at = (q: number) => diffs[Math.min(diffs.length - 1, Math.max(0, Math.round(q * diffs.length) - 1))];
  return { low: at((1 - LEVEL) / 2), high: at((1 + LEVEL) / 2) };
}
