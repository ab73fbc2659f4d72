// The Gradient2 limit arithmetic (after Netflix concurrency-limits), with its WindowedLimit-style sample
// aggregation: pure numbers in, a float limit out; no clock, no permits.

/** Gradient2 parameters (validated by the AdaptiveLimitPolicy / validateLimitOptions). */
export interface Gradient2Options {
  initialLimit: number;
  minLimit: number;
  maxLimit: number;
  smoothing: number;
  rttTolerance: number;
  /** Samples (or windows, when windowed) in the long RTT average. */
  longWindow: number;
  queueSize: number;
  /** Aggregate samples in windows before updating (default true). */
  windowed: boolean;
  /** Window length in ms (default 1000). */
  windowMs: number;
  /** Fewest samples a window needs to update the limit (default 10). */
  windowMinSamples: number;
  /** Samples with a shorter rtt are dropped in windowed mode (default 0.1 ms). */
  minRttMs: number;
}

/** Netflix defaults. */
export const GRADIENT2_DEFAULTS: Readonly<Gradient2Options> = Object.freeze({
  initialLimit: 20,
  minLimit: 20,
  maxLimit: 200,
  smoothing: 0.2,
  rttTolerance: 1.5,
  longWindow: 600,
  queueSize: 4,
  windowed: true,
  windowMs: 1000,
  windowMinSamples: 10,
  minRttMs: 0.1,
});

const LONG_WARMUP = 10;
const LONG_DECAY = 0.95;

/**
 * Gradient2: the limit follows rttTolerance × longRtt / rtt (clamped to [0.5, 1]) plus a queue allowance,
 * smoothed. Kept as a float; the enforced limit is its floor. In windowed mode samples are averaged per
 * window (average RTT, largest inflight) and the limit moves once per window.
 */
export class Gradient2Limit {
  private readonly o: Gradient2Options;
  private estimate: number;
  private longValue = 0;
  private longSum = 0;
  private longCount = 0;
  // The open window (windowed mode only).
  private winEnd = Number.NaN;
  private winSum = 0;
  private winCount = 0;
  private winMaxInflight = 0;
  private winDropped = false;
  /** Updates applied (per-sample mode: accepted samples; windowed: windows that had enough samples). */
  updates = 0;
  /** Samples ignored by the guard (rtt <= 0, not finite, or under minRttMs when windowed). */
  ignored = 0;

  constructor(options: Partial<Gradient2Options> = {}) {
    this.o = { ...GRADIENT2_DEFAULTS, ...options };
    this.estimate = this.o.initialLimit;
  }

  /** The current limit as a float. */
  get limit(): number {
    return this.estimate;
  }

  /** The limit admission enforces: floor(limit). */
  get enforced(): number {
    return Math.floor(this.estimate);
  }

  /** The long RTT average (0 before the first update). */
  get longRtt(): number {
    return this.longValue;
  }

  /**
   * Feeds one completed attempt: it ended at `endTime` after `rtt` ms, with `inflight` attempts in flight
   * at its acquire (itself included). `dropped` marks a timeout (Gradient2 treats it as a normal sample).
   */
  onSample(endTime: number, rtt: number, inflight: number, dropped = false): void {
    if (!(rtt > 0) || rtt === Number.POSITIVE_INFINITY) {
      this.ignored++;
      return;
    }
    if (!this.o.windowed) {
      this.update(rtt, inflight);
      return;
    }
    if (rtt < this.o.minRttMs) {
      this.ignored++;
      return;
    }
    if (Number.isNaN(this.winEnd)) this.winEnd = endTime + this.o.windowMs;
    this.winSum += rtt;
    this.winCount++;
    if (inflight > this.winMaxInflight) this.winMaxInflight = inflight;
    if (dropped) this.winDropped = true;
    if (endTime > this.winEnd) {
      const count = this.winCount;
      const avg = this.winSum / this.winCount;
      const maxInflight = this.winMaxInflight;
      this.winEnd = endTime + this.o.windowMs;
      this.winSum = 0;
      this.winCount = 0;
      this.winMaxInflight = 0;
      this.winDropped = false;
      if (count >= this.o.windowMinSamples) this.update(avg, maxInflight);
    }
  }

  /** Whether the open window has seen a dropped (timed-out) sample. */
  get windowDropped(): boolean {
    return this.winDropped;
  }

  /** One Gradient2 update with a (possibly window-averaged) rtt and the inflight that goes with it. */
  update(rtt: number, inflight: number): void {
    if (!(rtt > 0) || rtt === Number.POSITIVE_INFINITY) {
      this.ignored++;
      return;
    }
    const o = this.o;
    this.updates++;
    const long = this.addLong(rtt);
    if (long / rtt > 2) this.longValue *= LONG_DECAY;
    const limit = this.estimate;
    if (inflight < limit / 2) return;
    let gradient = (o.rttTolerance * long) / rtt;
    if (gradient < 0.5) gradient = 0.5;
    else if (gradient > 1) gradient = 1;
    let next = limit * (1 - o.smoothing) + (limit * gradient + o.queueSize) * o.smoothing;
    if (next < o.minLimit) next = o.minLimit;
    else if (next > o.maxLimit) next = o.maxLimit;
    this.estimate = next;
  }

  // Plain mean of the first samples, then an exponential average; a decay during warm-up is overwritten.
  private addLong(x: number): number {
    if (this.longCount < LONG_WARMUP) {
      this.longCount++;
      this.longSum += x;
      this.longValue = this.longSum / this.longCount;
    } else {
      const f = 2 / (this.o.longWindow + 1);
      this.longValue = this.longValue * (1 - f) + x * f;
    }
    return this.longValue;
  }
}
