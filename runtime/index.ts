// The runtime part's public surface: Node-side pieces shared by the deployable parts (real clock, Redis).

export {
  CLOCK_SAMPLES,
  CLOCK_TIMEOUT_MS,
  type ClockOffset,
  type ClockSample,
  estimateClockOffset,
  type MeasureClockOffsetOptions,
  measureClockOffset,
} from './clock-offset.ts';
export { ClockUnavailableError } from './errors.ts';
export {
  connectRedis,
  FAIL_FAST_OPTIONS,
  type RedisFromUrlOptions,
  redactText,
  redactUrl,
  redisFromUrl,
  waitForReady,
} from './redis-url.ts';
export {
  createStreamRecorder,
  type StreamRecorder,
  type StreamRecorderOptions,
  type StreamRecorderStats,
} from './stream-recorder.ts';
export {
  SystemClock,
  type SystemClockOptions,
  type SystemClockStats,
  type SystemTimerHandle,
} from './system-clock.ts';
