// The service's state over a real point, rebuilt from the server's attempt records: attempts queued and
// in flight, sampled at each arrival (what an arrival sees is the time average, PASTA). The collapse
// criterion (contract/collapse.ts) reads it exactly as it reads the simulator's timeline.

import type { Timeline } from '../../contract/index.ts';
import type { RawAttempts } from './raw-files.ts';

/** A timeline with its own storage (time on the server's clock, ms). */
export interface ServerTimeline extends Timeline {
  tMs: Float64Array;
  queue: Float64Array;
  inFlight: Float64Array;
}

/** Most samples kept; more say nothing new about growth and cost memory. */
const MAX_SAMPLES = 5000;

function sorted(xs: number[]): Float64Array {
  return Float64Array.from(xs).sort();
}

/** Count of values < t in an ascending array, advancing a cursor (times are visited in order). */
function advance(arr: Float64Array, cursor: number, t: number): number {
  while (cursor < arr.length && arr[cursor] < t) cursor++;
  return cursor;
}

/**
 * Queue and in-flight counts seen by each arrival of an attempt of a measured call (thinned to at most
 * MAX_SAMPLES). An attempt is in flight from enqueue to end and queued from enqueue to start; one with no
 * end (the point was stopped) stays in flight, one never started stays queued until its end.
 */
export function serverTimeline(a: RawAttempts, isMeasured: (call: number) => boolean): ServerTimeline {
  const enq: number[] = [];
  const deq: number[] = [];
  const ends: number[] = [];
  const arrivals: number[] = [];
  for (let i = 0; i < a.n; i++) {
    const e = a.enqueueMs[i];
    if (!Number.isFinite(e)) continue;
    enq.push(e);
    const end = Number.isFinite(a.endMs[i]) ? a.endMs[i] : Number.POSITIVE_INFINITY;
    deq.push(Number.isFinite(a.startMs[i]) ? a.startMs[i] : end);
    ends.push(end);
    if (isMeasured(a.call[i])) arrivals.push(e);
  }
  const E = sorted(enq);
  const D = sorted(deq);
  const X = sorted(ends);
  const T = sorted(arrivals);
  const stride = Math.max(1, Math.ceil(T.length / MAX_SAMPLES));
  const m = Math.ceil(T.length / stride);
  const out: ServerTimeline = {
    length: m,
    tMs: new Float64Array(m),
    queue: new Float64Array(m),
    inFlight: new Float64Array(m),
  };
  let ce = 0;
  let cd = 0;
  let cx = 0;
  for (let k = 0, i = 0; i < T.length; i += stride, k++) {
    const t = T[i];
    // What the arrival sees is the state just before it: every event strictly earlier than t. Since
    // enqueue ≤ start ≤ end, the counts never go negative.
    ce = advance(E, ce, t);
    cd = advance(D, cd, t);
    cx = advance(X, cx, t);
    out.tMs[k] = t;
    out.queue[k] = ce - cd;
    out.inFlight[k] = ce - cx;
  }
  return out;
}

/**
 * A timeline from the generator's in-flight samples alone (no attempts file): the queue is estimated as
 * in-flight beyond the workers, which is exact only when every in-flight attempt is on the server.
 */
export function generatorTimeline(
  samples: readonly (readonly [number, number])[],
  workers: number,
): ServerTimeline {
  const m = samples.length;
  const out: ServerTimeline = {
    length: m,
    tMs: new Float64Array(m),
    queue: new Float64Array(m),
    inFlight: new Float64Array(m),
  };
  samples.forEach(([t, v], k) => {
    out.tMs[k] = t;
    out.inFlight[k] = v;
    out.queue[k] = Math.max(0, v - workers);
  });
  return out;
}
