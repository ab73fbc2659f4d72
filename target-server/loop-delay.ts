// The target's event-loop delay as /stats reports it: the main thread's own check of a point, beside the
// pool's hold overshoot (a stall here delays responses, and with `--pool loop` the holds too).

import type { IntervalHistogram } from 'node:perf_hooks';
import type { TargetStats } from './target-stats.ts';

/** The event-loop delay since the last reset in ms (the monitor records ns; its resolution is 1 ms). */
export function loopDelaySummary(h: IntervalHistogram): TargetStats['eventLoopDelayMs'] {
  if (h.count === 0) return { count: 0, p50: null, p99: null, max: null };
  return { count: h.count, p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}
