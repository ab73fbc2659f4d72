// Whether a ramp step measured the service or the probe itself. On a busy machine the probe's own process
// runs late: sends leave after their Poisson time (send lag) and answers wait for its event loop, so the
// latencies rise and the ramp looks like a queue that is not there — under CPU contention a 4-worker target
// once fitted as 2, with nothing said. What the probe can see of its own health marks such steps.

/** What one step saw of the probe's own delays, ms. */
export interface ProbeHealth {
  /** Actual − intended send time, p99 over the step's sends. */
  sendLagP99Ms: number;
  /** How late the probe's event loop ran a timer (perf_hooks monitorEventLoopDelay), p99 over the step. */
  loopDelayP99Ms: number;
}

/** Below this the probe's own delays are never called noise, ms (timer and scheduling jitter of a quiet machine). */
const NOISE_FLOOR_MS = 3;
/** Above this share of the service median the probe's own delays are as large as what it measures. */
const NOISE_SHARE = 0.25;

/** The delay above which a step is noisy, for a service of this median service time, ms. */
export function noiseLimitMs(serviceMedianMs: number): number {
  return Math.max(NOISE_FLOOR_MS, NOISE_SHARE * serviceMedianMs);
}

/** Why a step is noisy (its figures against the limit), or null when the probe kept up. */
export function stepNoise(h: ProbeHealth, limitMs: number): string | null {
  const worst = Math.max(h.sendLagP99Ms, h.loopDelayP99Ms);
  if (!(worst > limitMs)) return null;
  return `send lag p99 ${h.sendLagP99Ms.toFixed(1)} ms, event-loop delay p99 ${h.loopDelayP99Ms.toFixed(1)} ms (over ${limitMs.toFixed(1)} ms)`;
}

/**
 * The fit's noise verdict: null when no step was noisy, else one sentence naming the worst step, how many
 * steps were noisy, and the fix.
 */
export function noiseVerdict(steps: readonly (ProbeHealth & { noisy: string | null })[]): string | null {
  let worst = -1;
  let worstMs = 0;
  let count = 0;
  steps.forEach((s, i) => {
    if (s.noisy === null) return;
    count++;
    const ms = Math.max(s.sendLagP99Ms, s.loopDelayP99Ms);
    if (ms > worstMs) {
      worstMs = ms;
      worst = i;
    }
  });
  if (count === 0) return null;
  return `the probe's own delays were ${worstMs.toFixed(1)} ms at step ${worst + 1} (${count} of ${steps.length} steps noisy: ${steps[worst].noisy}); the fit rests on latencies the probe itself added — rerun on a quieter machine`;
}
