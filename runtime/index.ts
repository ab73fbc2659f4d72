// The runtime part's public surface: Node-side pieces shared by the deployable parts (real clock, Redis).

export { describeError, exitCodeOf, reportFatal } from './fatal-error.ts';
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
