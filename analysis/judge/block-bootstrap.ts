// Intervals of differences between two samples paired by call: sim and real of one point, or two real
// points of one seed (the claims). Both sides draw the same arrivals and service times for a call (common
// random numbers), so they move together call by call, and the sampling error of their difference is far
// smaller than either side's own: an unpaired interval adds the two as if they were independent, and is as
// wide as the service's own randomness.
//
// Method: a block bootstrap over call indices. The calls are cut into blocks of consecutive indices (√N calls
// each, so the queue's memory — a busy period, a straggler holding a worker — stays within a block); each
// resample gives every block a Poisson(1) weight, the same block the same weight on both sides, and takes each
// side's statistic under those weights: a percentile by the nearest-rank rule of contract/percentile.ts, or a
// mean. The 2.5 % and 97.5 % of the resampled differences bound the difference. Deterministic: the weights
// come from the model's counter-based generator under a fixed key, so a verdict reads the same every time.

import { percentileOfSorted, percentileRank } from '../../contract/index.ts';
import { uniform } from '../../model/index.ts';

/** A side's measured calls with one value each (a latency, a count…): each call's index and value, any order. */
export interface CallSample {
  call: Float64Array;
  latencyMs: Float64Array;
}

/** Resamples an interval takes. */
const RESAMPLES = 1000;
/** The interval's level (95 %): the percentiles of the resampled differences that bound it. */
const LOW_P = 2.5;
const HIGH_P = 97.5;
// The generator's key of the weights: a seed and stream no point of the model uses (its streams are 1–21).
const WEIGHT_SEED = 0x5eed;
const WEIGHT_STREAM = 64;
// Poisson(1)'s cumulative distribution up to 7, for weights by inversion (a weight above 8 has odds ~1e-6).
const POISSON_1_CDF: number[] = [];
{
  let pk = Math.exp(-1);
  let cum = 0;
  for (let k = 0; k < 8; k++) {
    cum += pk;
    POISSON_1_CDF.push(cum);
    pk /= k + 1;
  }
}

/** The blocks of consecutive call indices every side of one comparison is resampled by. */
export class CallBlocks {
  readonly first: number;
  readonly width: number;
  readonly count: number;

  /** Blocks over the calls of every sample given (their smallest to their largest index). */
  constructor(samples: readonly { call: Float64Array }[]) {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const s of samples) {
      for (const c of s.call) {
        if (c < first) first = c;
        if (c > last) last = c;
      }
    }
    const span = Number.isFinite(first) ? last - first + 1 : 0;
    this.first = Number.isFinite(first) ? first : 0;
    this.width = Math.max(1, Math.ceil(Math.sqrt(span)));
    this.count = Math.ceil(span / this.width);
  }

  /** The block of call index `call`. */
  of(call: number): number {
    return Math.floor((call - this.first) / this.width);
  }

  /** Resample r's block weights, into `w` (length `count`). */
  weights(r: number, w: Float64Array): void {
    for (let k = 0; k < this.count; k++) {
      const u = uniform(WEIGHT_SEED, WEIGHT_STREAM, r, k);
      let x = 0;
      while (x < POISSON_1_CDF.length && u >= POISSON_1_CDF[x]) x++;
      w[k] = x;
    }
  }
}

/** One side's sample, ready for weighted percentiles: its values ascending with each one's block. */
export class WeightedSample {
  private readonly value: Float64Array;
  private readonly block: Int32Array;
  /** Values per block, for a resample's total weight. */
  private readonly perBlock: Float64Array;

  constructor(s: CallSample, blocks: CallBlocks) {
    const n = s.latencyMs.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => s.latencyMs[a] - s.latencyMs[b]);
    this.value = new Float64Array(n);
    this.block = new Int32Array(n);
    this.perBlock = new Float64Array(blocks.count);
    for (let j = 0; j < n; j++) {
      const i = order[j];
      this.value[j] = s.latencyMs[i];
      this.block[j] = blocks.of(s.call[i]);
      this.perBlock[this.block[j]]++;
    }
  }

  /** The nearest-rank p-th percentile under block weights `w` (NaN when every value weighs 0). */
  percentile(w: Float64Array, p: number): number {
    let total = 0;
    for (let b = 0; b < w.length; b++) total += w[b] * this.perBlock[b];
    if (total === 0) return Number.NaN;
    // percentileRank on the sample each value repeated by its weight: the first value whose cumulative weight
    // reaches the rank (weights are whole numbers, so this is percentileOfSorted of that sample).
    const rank = percentileRank(total, p);
    const n = this.value.length;
    if (p <= 50) {
      let cum = 0;
      for (let j = 0; j < n; j++) {
        cum += w[this.block[j]];
        if (cum >= rank) return this.value[j];
      }
      return this.value[n - 1];
    }
    // From the top: the value sits where the weight above it first reaches total − rank + 1.
    let above = 0;
    for (let j = n - 1; j >= 0; j--) {
      above += w[this.block[j]];
      if (above > total - rank) return this.value[j];
    }
    return this.value[0];
  }
}

/** One side's per-call values, summed by block: a resample's mean is then one pass over the blocks. */
export class BlockMeans {
  private readonly sum: Float64Array;
  private readonly count: Float64Array;

  constructor(s: CallSample, blocks: CallBlocks) {
    this.sum = new Float64Array(blocks.count);
    this.count = new Float64Array(blocks.count);
    for (let i = 0; i < s.call.length; i++) {
      const b = blocks.of(s.call[i]);
      this.sum[b] += s.latencyMs[i];
      this.count[b]++;
    }
  }

  /** The mean under block weights `w` (NaN when every value weighs 0). */
  mean(w: Float64Array): number {
    let total = 0;
    let weight = 0;
    for (let b = 0; b < w.length; b++) {
      total += w[b] * this.sum[b];
      weight += w[b] * this.count[b];
    }
    return weight === 0 ? Number.NaN : total / weight;
  }
}

/** A 95 % interval; `low` ≤ `high`. */
export interface DiffInterval {
  low: number;
  high: number;
}

/**
 * The 95 % intervals of several differences under the same resamples: `diffs[i](w)` is difference i under
 * block weights w. Null for a difference no resample could compute (NaN every time).
 */
export function bootstrapIntervals(
  blocks: CallBlocks,
  diffs: readonly ((w: Float64Array) => number)[],
  resamples = RESAMPLES,
): (DiffInterval | null)[] {
  const w = new Float64Array(blocks.count);
  const out: number[][] = diffs.map(() => []);
  for (let r = 0; r < resamples; r++) {
    blocks.weights(r, w);
    for (let i = 0; i < diffs.length; i++) {
      const d = diffs[i](w);
      if (!Number.isNaN(d)) out[i].push(d);
    }
  }
  return out.map((ds) => {
    if (ds.length === 0) return null;
    ds.sort((x, y) => x - y);
    return { low: percentileOfSorted(ds, LOW_P), high: percentileOfSorted(ds, HIGH_P) };
  });
}

/**
 * The 95 % interval of percentile p of A minus percentile p of B, paired by call index (see the file
 * comment); null when either sample is empty.
 */
export function pairedDifferenceInterval(
  a: CallSample,
  b: CallSample,
  p: number,
  resamples = RESAMPLES,
): DiffInterval | null {
  if (a.call.length === 0 || b.call.length === 0) return null;
  const blocks = new CallBlocks([a, b]);
  const sa = new WeightedSample(a, blocks);
  const sb = new WeightedSample(b, blocks);
  return bootstrapIntervals(blocks, [(w) => sa.percentile(w, p) - sb.percentile(w, p)], resamples)[0];
}
