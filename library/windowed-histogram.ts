// A rotating latency histogram: the last windowMs of samples in WINDOW_SLOTS completed slots plus the one
// being filled. Adding a sample is O(1); the window moves only when a slot boundary is crossed, which is
// when a percentile of it is worth recomputing (the caller caches it until the next rotation).
import { BUCKET_VALUE, BUCKETS, bucketOf } from './log-buckets.ts';
import { percentileRank } from './percentile-rank.ts';

/** Completed slots a window spans; the percentile in force is refreshed every windowMs / WINDOW_SLOTS. */
export const WINDOW_SLOTS = 5;

const RING = WINDOW_SLOTS + 1;

/**
 * Samples of the completed window [t − windowMs, t), t being the start of the slot now being filled.
 * Slots expire lazily on the first access after their time (no timer); a jump longer than the window
 * clears everything at once. Memory is fixed: 6 slots of 2 050 counters and their sum.
 */
export class WindowedHistogram {
  readonly windowMs: number;
  readonly slotMs: number;
  private readonly slots: Uint32Array[] = [];
  private readonly slotCount = new Float64Array(RING);
  private readonly slotMin = new Float64Array(RING);
  private readonly slotMax = new Float64Array(RING);
  /** Counts of the completed window (sum of its slots). */
  private readonly total = new Float64Array(BUCKETS);
  /** Samples in the completed window (summarise() keeps it, with lo and hi). */
  private n = 0;
  private lo = Number.NaN;
  private hi = Number.NaN;
  private epoch = Number.NaN;
  private cur = 0;

  constructor(windowMs: number) {
    this.windowMs = windowMs;
    this.slotMs = windowMs / WINDOW_SLOTS;
    for (let i = 0; i < RING; i++) this.slots.push(new Uint32Array(BUCKETS));
    this.slotMin.fill(Number.POSITIVE_INFINITY);
    this.slotMax.fill(Number.NEGATIVE_INFINITY);
  }

  /** Samples in the completed window. */
  get count(): number {
    return this.n;
  }

  /** Smallest and largest sample of the completed window (NaN when it is empty). */
  get min(): number {
    return this.lo;
  }
  get max(): number {
    return this.hi;
  }

  /** Moves the window to `now`; true when it moved (a slot completed), i.e. when a cached percentile is stale. */
  advance(now: number): boolean {
    const e = Math.floor(now / this.slotMs);
    const last = this.epoch;
    if (e === last) return false;
    if (Number.isNaN(last)) {
      this.epoch = e;
      this.cur = mod(e);
      return true;
    }
    // Time never runs backwards on our clocks; if it did, keep filling the slot we are in.
    if (e < last) return false;
    if (e - last > WINDOW_SLOTS) {
      for (let i = 0; i < RING; i++) this.clearSlot(i);
      this.total.fill(0);
    } else {
      // Slot j completes and joins the window; the slot j − WINDOW_SLOTS leaves it and is reused for j + 1.
      for (let j = last; j < e; j++) {
        this.moveSlot(mod(j), 1);
        const next = mod(j + 1);
        this.moveSlot(next, -1);
        this.clearSlot(next);
      }
    }
    this.epoch = e;
    this.cur = mod(e);
    this.summarise();
    return true;
  }

  /** Adds one sample (ms) to the slot being filled; call advance(now) first. */
  add(v: number): void {
    const c = this.cur;
    this.slots[c][bucketOf(v)]++;
    this.slotCount[c]++;
    if (v < this.slotMin[c]) this.slotMin[c] = v;
    if (v > this.slotMax[c]) this.slotMax[c] = v;
  }

  /**
   * The q-th percentile (0 < q < 100) of the completed window by the nearest-rank rule (percentile-rank.ts):
   * the bucket holding the percentileRank(n, q)-th smallest sample, reported as its midpoint clamped to the window's
   * exact [min, max] (so a constant latency reads back exactly). NaN when the window is empty.
   */
  percentile(q: number): number {
    const n = this.n;
    if (n === 0) return Number.NaN;
    const rank = percentileRank(n, q);
    const t = this.total;
    let b = 0;
    if (rank * 2 > n) {
      // High percentiles sit near the top: count down from it.
      let above = n - rank + 1;
      for (b = BUCKETS - 1; b > 0; b--) {
        above -= t[b];
        if (above <= 0) break;
      }
    } else {
      let seen = 0;
      for (b = 0; b < BUCKETS - 1; b++) {
        seen += t[b];
        if (seen >= rank) break;
      }
    }
    const v = BUCKET_VALUE[b];
    return Math.max(this.lo, Math.min(v, this.hi));
  }

  // Adds (sign 1) or removes (sign −1) ring slot i's counts to or from the window's sum.
  private moveSlot(i: number, sign: number): void {
    if (this.slotCount[i] === 0) return;
    const s = this.slots[i];
    const t = this.total;
    for (let b = 0; b < BUCKETS; b++) if (s[b] !== 0) t[b] += sign * s[b];
  }

  private clearSlot(i: number): void {
    if (this.slotCount[i] !== 0) this.slots[i].fill(0);
    this.slotCount[i] = 0;
    this.slotMin[i] = Number.POSITIVE_INFINITY;
    this.slotMax[i] = Number.NEGATIVE_INFINITY;
  }

  // The window's count, min and max from its completed slots (every ring slot but the current one).
  private summarise(): void {
    let n = 0;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < RING; i++) {
      if (i === this.cur || this.slotCount[i] === 0) continue;
      n += this.slotCount[i];
      if (this.slotMin[i] < lo) lo = this.slotMin[i];
      if (this.slotMax[i] > hi) hi = this.slotMax[i];
    }
    this.n = n;
    this.lo = n === 0 ? Number.NaN : lo;
    this.hi = n === 0 ? Number.NaN : hi;
  }
}

function mod(k: number): number {
  const r = k % RING;
  return r < 0 ? r + RING : r;
}
