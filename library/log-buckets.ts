// The bucket layout of the latency histograms behind percentile hedge delays: log-linear buckets (64 per
// power of two) read straight from a double's exponent and top mantissa bits, so placing a value costs no
// logarithm and no loop. A bucket's value is its midpoint, within 1/128 (0.78 %) of anything it holds.

/** Linear sub-buckets per power of two: 2^6 = 64, so half a bucket is at most 1/128 of its lower edge. */
const SUB_BUCKET_BITS = 6;
const SUB = 1 << SUB_BUCKET_BITS;
/** Smallest exponent with its own buckets: 2^-10 ms ≈ 1 µs; everything below shares bucket 0. */
const MIN_EXPONENT = -10;
/** First exponent past the top: values ≥ 2^22 ms (≈ 70 min) share the last bucket. */
const MAX_EXPONENT = 22;
/** Number of buckets: underflow, 32 octaves × 64, overflow. */
export const BUCKETS = 1 + (MAX_EXPONENT - MIN_EXPONENT) * SUB + 1;
/** Index of the bucket of values ≥ 2^MAX_EXPONENT ms. */
const OVERFLOW = BUCKETS - 1;

const LOW = 2 ** MIN_EXPONENT;
const HIGH = 2 ** MAX_EXPONENT;

// One scratch double viewed as two 32-bit words; which word holds the exponent depends on the platform's
// byte order, found once here rather than assumed.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
f64[0] = 1;
const HI_WORD = u32[1] === 0x3ff00000 ? 1 : 0;

/** Index of the bucket holding `v` ms (v ≥ 0; NaN and negatives land in bucket 0). */
export function bucketOf(v: number): number {
  if (!(v >= LOW)) return 0;
  if (v >= HIGH) return OVERFLOW;
  f64[0] = v;
  const hi = u32[HI_WORD];
  // Biased exponent in bits 20..30 of the high word, the mantissa's top 6 bits right below it.
  const e = (hi >>> 20) - 1023;
  return 1 + (e - MIN_EXPONENT) * SUB + ((hi >>> (20 - SUB_BUCKET_BITS)) & (SUB - 1));
}

/** Midpoint of each bucket, ms; bucket 0 and the overflow bucket get their lower edge (callers clamp). */
export const BUCKET_VALUE: Float64Array = (() => {
  const mid = new Float64Array(BUCKETS);
  mid[0] = LOW / 2;
  for (let i = 1; i < OVERFLOW; i++) {
    const e = MIN_EXPONENT + Math.floor((i - 1) / SUB);
    const m = (i - 1) % SUB;
    mid[i] = 2 ** e * (1 + (m + 0.5) / SUB);
  }
  mid[OVERFLOW] = HIGH;
  return mid;
})();
