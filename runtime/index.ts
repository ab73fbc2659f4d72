// The runtime part's public surface: Node-side pieces shared by the deployable parts (real clock, Redis).

export { reportFatal } from './fatal-error.ts';
export { connectRedis, redactText, redactUrl, redisFromUrl } from './redis-url.ts';
export { createStreamRecorder, type StreamRecorder, type StreamRecorderStats } from './stream-recorder.ts';
export { SystemClock, type SystemClockOptions } from './system-clock.ts';
