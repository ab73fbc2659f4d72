// Collapse: a point whose queue never drains. A pure verdict over a timeline of queue length and in-flight
// attempts, sampled during the measured window; the simulator and the real harness both call it.
//
// Criterion. Let W = [start, end] be the measured window. The point collapsed when, over the second half
// of W, (1) the queue was never seen empty (queueMin > 0: the workers never caught up) and (2) the
// in-flight count grew by at least one pool's worth between the middle of W and its end
// (inFlightEnd − inFlightMid ≥ workers). A stable queue, even at 95 % load, empties again and again over a
// window thousands of service times long, so (1) alone rarely fires by chance; (2) separates a queue that
// merely sits high from one that grows for as long as the run lasts.

/** Samples of the service's state at increasing times (ms). Arrival-time samples see time averages (PASTA). */
export interface Timeline {
  readonly length: number;
  readonly tMs: ArrayLike<number>;
  /** Attempts waiting for a worker. */
  readonly queue: ArrayLike<number>;
  /** Attempts queued or in service. */
  readonly inFlight: ArrayLike<number>;
}

/** The verdict and the evidence behind it (kept with the point's result). */
export interface CollapseEvidence {
  collapsed: boolean;
  /** One sentence saying why (or why not). */
  reason: string;
  windowStartMs: number;
  windowEndMs: number;
  /** Samples inside the window. */
  samples: number;
  /** Mean in-flight over [40 %, 60 %] of the window. */
  inFlightMid: number;
  /** Mean in-flight over the last 10 % of the window. */
  inFlightEnd: number;
  /** Smallest queue length seen in the second half of the window. */
  queueMinSecondHalf: number;
  /** Least-squares slope of in-flight over the second half, attempts per second. */
  growthPerSec: number;
}

/** Fewer samples than this in the second half: too little evidence to call a collapse. */
export const MIN_SAMPLES = 20;

/** Applies the criterion above to the samples in [windowStartMs, windowEndMs]. */
export function detectCollapse(
  tl: Timeline,
  window: { startMs: number; endMs: number },
  workers: number,
): CollapseEvidence {
  const { startMs, endMs } = window;
  const w = endMs - startMs;
  const half = startMs + w / 2;
  let samples = 0;
  let second = 0;
  let qMin = Number.POSITIVE_INFINITY;
  const mid = new Mean();
  const end = new Mean();
  // least squares over the second half, on t in seconds relative to `half`
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < tl.length; i++) {
    const t = tl.tMs[i];
    if (t < startMs || t > endMs) continue;
    samples++;
    const f = w > 0 ? (t - startMs) / w : 1;
    const y = tl.inFlight[i];
    if (f >= 0.4 && f <= 0.6) mid.add(y);
    if (f >= 0.9) end.add(y);
    if (t >= half) {
      second++;
      if (tl.queue[i] < qMin) qMin = tl.queue[i];
      const x = (t - half) / 1000;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
  }
  const den = second * sxx - sx * sx;
  const growthPerSec = second > 1 && den > 0 ? (second * sxy - sx * sy) / den : 0;
  const inFlightMid = mid.value();
  const inFlightEnd = end.value();
  const queueMinSecondHalf = second > 0 ? qMin : Number.NaN;
  const base = {
    windowStartMs: startMs,
    windowEndMs: endMs,
    samples,
    inFlightMid,
    inFlightEnd,
    queueMinSecondHalf,
    growthPerSec,
  };
  if (second < MIN_SAMPLES || mid.n === 0 || end.n === 0) {
    return { ...base, collapsed: false, reason: `too few samples in the window (${samples}) to judge` };
  }
  if (queueMinSecondHalf <= 0) {
    return { ...base, collapsed: false, reason: 'the queue drained during the second half of the window' };
  }
  const growth = inFlightEnd - inFlightMid;
  if (growth < workers) {
    return {
      ...base,
      collapsed: false,
      reason: `the queue stayed non-empty but in-flight grew by only ${growth.toFixed(1)} (< ${workers} workers) from mid to end`,
    };
  }
  return {
    ...base,
    collapsed: true,
    reason: `the queue never drained in the second half and in-flight grew from ${inFlightMid.toFixed(0)} to ${inFlightEnd.toFixed(0)} (${growthPerSec.toFixed(1)}/s)`,
  };
}

class Mean {
  n = 0;
  private sum = 0;
  add(x: number): void {
    this.n++;
    this.sum += x;
  }
  value(): number {
    return this.n > 0 ? this.sum / this.n : Number.NaN;
  }
}
