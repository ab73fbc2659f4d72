// The recorder of a point's attempt records: opened on the point's attempts stream when PUT /config names a
// run and slug, and closed with a bounded wait, so a Redis that is down cannot hold the next point back.

import type { Redis } from 'ioredis';
import { redisKeys } from '../contract/index.ts';
import { createStreamRecorder, type StreamRecorder } from '../runtime/index.ts';
import type { ServerConfig } from './config.ts';
import type { TargetStats } from './target-stats.ts';
import { throttledLog } from './throttled-log.ts';

/** How long PUT /config waits for the previous point's records to reach Redis. */
export const RECORDER_CLOSE_MS = 10_000;

/** A recorder on `cfg`'s attempts stream, or null when `cfg` records nothing (or there is no Redis). */
export function openAttemptRecorder(
  redis: Redis | null,
  cfg: ServerConfig,
  onLog: (message: string) => void,
): { recorder: StreamRecorder; key: string } | null {
  if (!cfg.record || redis === null) return null;
  const key = redisKeys(cfg.record.run, cfg.record.slug).attempts;
  return { recorder: createStreamRecorder(redis, key, { onError: throttledLog(onLog) }), key };
}

/** Flushes and closes `rec` (waiting at most `timeoutMs`); returns its final counters. */
export async function closeAttemptRecorder(
  rec: StreamRecorder,
  key: string,
  timeoutMs: number,
  onLog: (message: string) => void,
): Promise<NonNullable<TargetStats['recorder']>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((r) => {
    timer = setTimeout(() => r('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([rec.close().then(() => 'ok' as const), timedOut]);
  clearTimeout(timer);
  const s = rec.stats();
  if (outcome === 'timeout') {
    onLog(`attempt records of ${key}: ${s.buffered} still unwritten after ${timeoutMs} ms (Redis down?)`);
  }
  return { key, ...s };
}
