// Writes the point's status hash in Redis (state, progress counters, heartbeat, summary), which the
// orchestrator reads.

import type { Redis } from 'ioredis';
import { type LoadProgress, progressFields, type StatusHash } from '../contract/index.ts';
import { RedisUnusableError } from './errors.ts';

// Its fields are the contract's (contract/point-status.ts); loadgen's modules import the type from here.
export type { LoadProgress };

/** Writes the status hash; periodic updates never block or throw, the final one must succeed. */
export class StatusWriter {
  failures = 0;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Fire-and-forget progress update (a failure is counted; the next update retries). */
  update(p: LoadProgress, extra: StatusHash = {}): void {
    this.redis.hset(this.key, { ...progressFields(p, Date.now()), ...extra }).catch(() => {
      this.failures++;
    });
  }

  /** The final write (state, counters, summary); throws RedisUnusableError when Redis does not take it. */
  async final(p: LoadProgress, extra: StatusHash): Promise<void> {
    try {
      await this.redis.hset(this.key, { ...progressFields(p, Date.now()), ...extra });
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
