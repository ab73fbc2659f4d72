// The point's status hash in Redis (state, progress counters, heartbeat, summary) as the orchestrator reads it.

import type { Redis } from 'ioredis';
import { RedisUnusableError } from './errors.ts';

/** Progress of a running point, as written to the status hash and shown on stderr. */
export interface LoadProgress {
  state: 'running' | 'done' | 'failed';
  /** Seconds since the point's t0. */
  t: number;
  sent: number;
  completed: number;
  /** Attempts in flight. */
  inflight: number;
  /** Latency p99 of the measured ok calls so far, ms (NaN before the first). */
  p99Ms: number;
  sendLagP99Ms: number;
}

/** Writes the status hash; periodic updates never block or throw, the final one must succeed. */
export class StatusWriter {
  failures = 0;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Fire-and-forget progress update (a failure is counted; the next update retries). */
  update(p: LoadProgress, extra: Record<string, string> = {}): void {
    this.redis.hset(this.key, { ...fields(p), ...extra }).catch(() => {
      this.failures++;
    });
  }

  /** The final write (state, counters, summary); throws RedisUnusableError when Redis does not take it. */
  async final(p: LoadProgress, extra: Record<string, string>): Promise<void> {
    try {
      await this.redis.hset(this.key, { ...fields(p), ...extra });
    } catch (err) {
      throw new RedisUnusableError(
        `could not write the final status to ${this.key}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }
}

function fields(p: LoadProgress): Record<string, string> {
  return {
    state: p.state,
    sent: String(p.sent),
    completed: String(p.completed),
    inflight: String(p.inflight),
    p99_ms: Number.isFinite(p.p99Ms) ? p.p99Ms.toFixed(3) : '',
    send_lag_p99_ms: Number.isFinite(p.sendLagP99Ms) ? p.sendLagP99Ms.toFixed(3) : '',
    heartbeat_ms: String(Date.now()),
  };
}
