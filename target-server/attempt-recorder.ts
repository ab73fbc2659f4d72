// The recorder of a point's attempt records: opened on the point's attempts stream when PUT /config names a
// run and slug, and closed with a bounded wait, so a Redis that is down cannot hold the next point back;
// PointRecording is the target's one recording at a time.

import type { Redis } from 'ioredis';
import { redisKeys } from '../contract/index.ts';
import { createStreamRecorder, type StreamRecorder } from '../runtime/index.ts';
import type { ServerConfig } from './config.ts';
import type { TargetStats } from './target-stats.ts';
import { throttledLog } from './throttled-log.ts';

/** How long PUT /config waits for the previous point's records to reach Redis. */
const RECORDER_CLOSE_MS = 10_000;

/** A recorder on `cfg`'s attempts stream, or null when `cfg` records nothing (or there is no Redis). */
function openAttemptRecorder(
  redis: Redis | null,
  cfg: ServerConfig,
  onLog: (message: string) => void,
): { recorder: StreamRecorder; key: string } | null {
  if (!cfg.record || redis === null) return null;
  const key = redisKeys(cfg.record.run, cfg.record.slug).attempts;
  return { recorder: createStreamRecorder(redis, key, { onError: throttledLog(onLog) }), key };
}

/** Flushes and closes `rec` (waiting at most `timeoutMs`); returns its final counters. */
async function closeAttemptRecorder(
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

/** The recording of the point being measured: one recorder at a time, switched by PUT /config. */
export class PointRecording {
  private recorder: StreamRecorder | null = null;
  private key: string | null = null;

  constructor(
    private readonly redis: Redis | null,
    private readonly onLog: (message: string) => void,
  ) {}

  /** Adds one attempt line to the point's stream (nothing while no point is recorded). */
  add(line: string): void {
    this.recorder?.add(line);
  }

  /** Records `cfg`'s point from now on; the previous point's recorder (another key) is closed first. */
  async switchTo(cfg: ServerConfig): Promise<TargetStats['recorder']> {
    const nextKey = cfg.record ? redisKeys(cfg.record.run, cfg.record.slug).attempts : null;
    if (nextKey === this.key) return null;
    const previous = await this.close();
    this.open(cfg);
    return previous;
  }

  /** Starts recording `cfg`'s point, if it names one (and there is a Redis). */
  open(cfg: ServerConfig): void {
    const opened = openAttemptRecorder(this.redis, cfg, this.onLog);
    if (opened === null) return;
    this.recorder = opened.recorder;
    this.key = opened.key;
  }

  /** Flushes and closes the recorder (bounded wait); returns its final counters. */
  async close(timeoutMs = RECORDER_CLOSE_MS): Promise<TargetStats['recorder']> {
    const rec = this.recorder;
    const key = this.key;
    if (rec === null || key === null) return null;
    this.recorder = null;
    this.key = null;
    return closeAttemptRecorder(rec, key, timeoutMs, this.onLog);
  }

  /** /stats `recorder`: the current point's counters, or null. */
  stats(): TargetStats['recorder'] {
    return this.recorder && this.key ? { key: this.key, ...this.recorder.stats() } : null;
  }
}
