// Counter-based random numbers: a draw is a pure function of (seed, stream, call, attempt), so the
// simulator and the target server draw identical demands (and failures) for identical attempts, in any order.

/** Independent streams: arrivals and service times never share draws. */
export const STREAM = Object.freeze({
  arrival: 1,
  /** Decides body vs straggler. */
  serviceKind: 2,
  /** First uniform of the service value (straggler position, or Box–Muller radius). */
  serviceA: 3,
  /** Second uniform of the service value (Box–Muller angle). */
  serviceB: 4,
  /** Decides whether a call's attempts share the first attempt's straggler draw (correlated slowness). */
  correlation: 5,
  /** The balancer's draws (k = 0, 1): which replica an attempt goes to. Streams 6 and 7 (balancer + k). */
  balancer: 6,
  /** Decides whether an attempt fails (model/attempt-failure.ts); 8, since the balancer's second draw is 7. */
  error: 8,
  /** Decides whether a call's attempts share the first attempt's error draw (correlated failures). */
  errorCorrelation: 9,
  /**
   * The transport's draws (model/transport-delays.ts): per direction a first uniform (the whole draw of an
   * empirical or the Box–Muller radius) and a second (the Box–Muller angle). Numbered from 16 so the
   * service model's own streams can grow below them.
   */
  requestA: 16,
  requestB: 17,
  responseA: 18,
  responseB: 19,
  cancelA: 20,
  cancelB: 21,
  /** A tied copy's cancel from one server to another (model/transport-delays.ts, peerCancelDelayMs). */
  peerCancelA: 22,
  peerCancelB: 23,
});

const TWO_POW_53_INV = 1 / 9007199254740992;
const TWO_POW_32 = 4294967296;

// A 32-bit bijective mixer (xorshift-multiply). Two lanes keyed differently give 64 bits of state, so
// distinct (seed, call, attempt) keys practically never share a state.
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h;
}

/**
 * The two lanes of a key, written into `out` (no allocation): the expensive part of a draw. Several streams
 * of the same key (the service time's three uniforms) share it.
 */
export function keyLanes(seed: number, call: number, attempt: number, out: Int32Array): void {
  const seedHi = (seed / TWO_POW_32) | 0;
  let a = mix((seed | 0) ^ 0x3c6ef372);
  let b = mix((seed | 0) ^ 0x5be0cd19);
  a = mix(a ^ seedHi);
  b = mix((b + seedHi) | 0);
  a = mix(a ^ call);
  b = mix((b + Math.imul(call, 0x85ebca6b)) | 0);
  a = mix((a + attempt) | 0);
  b = mix(b ^ Math.imul(attempt, 0xc2b2ae35));
  out[0] = a;
  out[1] = b;
}

/** The uniform in [0, 1) of `stream` for the key whose lanes are `lanes` (see keyLanes). */
export function streamUniform(lanes: Int32Array, stream: number): number {
  const a = mix((lanes[0] + Math.imul(stream, 0x9e3779b9)) | 0);
  const b = mix(lanes[1] ^ Math.imul(stream, 0x27d4eb2f));
  // Cross the lanes so each output bit depends on both; 26 + 27 bits make the 53-bit mantissa.
  const hi = mix(a ^ b) >>> 6;
  const lo = mix((a + Math.imul(b, 0x165667b1)) | 0) >>> 5;
  return (hi * 134217728 + lo) * TWO_POW_53_INV;
}

const scratch = new Int32Array(2);

/**
 * A uniform draw in [0, 1) with 53 random bits. `seed` may be any non-negative integer up to 2^53;
 * `call` and `attempt` are non-negative integers below 2^32.
 */
export function uniform(seed: number, stream: number, call: number, attempt: number): number {
  keyLanes(seed, call, attempt, scratch);
  return streamUniform(scratch, stream);
}

/** Half an ulp of the 53-bit grid: added to a [0, 1) draw it gives a draw in (0, 1). */
export const OPEN_OFFSET = 0.5 * TWO_POW_53_INV;

/** A uniform draw in (0, 1): never 0, so logarithms stay finite. */
export function uniformOpen(seed: number, stream: number, call: number, attempt: number): number {
  return uniform(seed, stream, call, attempt) + OPEN_OFFSET;
}
