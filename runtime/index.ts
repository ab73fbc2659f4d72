// The runtime part's public surface: Node-side pieces shared by the deployable parts (real clock, Redis).

export {
  CLOCK_SAMPLES,
  CLOCK_TIMEOUT_MS,
  type ClockOffset,
  type ClockSample,
  estimateClockOffset,
  measureClockOffset,
} from './clock-offset.ts';
export { ClockUnavailableError } from './errors.ts';
export { reportFatal } from './fatal-error.ts';
export { connectRedis, redactText, redactUrl, redisFromUrl } from './redis-url.ts';
export { createStreamRecorder, type StreamRecorder, type StreamRecorderStats } from './stream-recorder.ts';
export { SystemClock, type SystemClockOptions } from './system-clock.ts';
export { wholeNumber, wholeNumberOption } from './whole-number.ts';
