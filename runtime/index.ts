// The runtime part's public surface: Node-side pieces shared by the deployable parts (real clock, Redis).

export { AtomicWriter, copyFileAtomic, writeFileAtomicSync } from './atomic-file.ts';
export {
  CLOCK_SAMPLES,
  CLOCK_TIMEOUT_MS,
  type ClockOffset,
  estimateClockOffset,
  measureClockOffset,
} from './clock-offset.ts';
export { ClockUnavailableError } from './errors.ts';
export { reportFatal } from './fatal-error.ts';
export {
  GRPC_PING_PATH,
  GRPC_SERVICE,
  GRPC_WORK_PATH,
  grpcJson,
  PREVIOUS_ATTEMPTS_KEY,
  TARGET_SERVICE,
  type WorkReply,
} from './grpc-service.ts';
export { type MachineCpu, startCpuMeter } from './machine-cpu.ts';
export { openFilesLimit } from './open-files.ts';
export { parsedOption } from './parsed-option.ts';
export { connectRedis, redactText, redactUrl, redisFromUrl, waitForReady } from './redis-url.ts';
export { createStreamRecorder, type StreamRecorder, type StreamRecorderStats } from './stream-recorder.ts';
export { SystemClock, type SystemClockOptions } from './system-clock.ts';
export { isLocalTargetHost } from './target-host.ts';
export { TEST_HOLD_ENV, testHold } from './test-hold.ts';
export { trafficLine } from './traffic-line.ts';
export { wholeNumberOption } from './whole-number.ts';
