// The start barrier of K load generators sharing one point: each, once warmed up, says it is ready; the
// last one releases the others. Their t0s then differ by how fast each wakes (ms) instead of by their
// start-up and warm-up times (s), so the K slices of the schedule reach the target interleaved as the one stream the
// simulator sees. No clock is shared: the hosts' clocks may disagree, Redis's order does not.

import type { Redis } from 'ioredis';
import { waitForReady } from '../runtime/index.ts';
import { BarrierTimeoutError, RedisUnusableError } from './errors.ts';

/** What the barrier needs. */
interface BarrierOptions {
  redis: Redis;
  /** The point's counter of ready clients and the list the last one releases the others by. */
  readyKey: string;
  goKey: string;
  clients: number;
  timeoutMs: number;
  /** True once the point was stopped from outside: waiting ends at once. */
  stopped: () => boolean;
}

/** Resolves when all `clients` are ready (or the point was stopped); throws BarrierTimeoutError after timeoutMs. */
export async function startBarrier(o: BarrierOptions): Promise<void> {
  const ready = await o.redis.incr(o.readyKey);
  if (ready > o.clients) {
    throw new RedisUnusableError(
      `${o.readyKey} counts ${ready} ready load generators for ${o.clients}: keys of an earlier try are left; drain or delete them before running the point again`,
    );
  }
  if (ready === o.clients) {
    if (o.clients > 1) await o.redis.rpush(o.goKey, ...Array.from({ length: o.clients - 1 }, () => '1'));
    return;
  }
  // BLPOP blocks its connection: a connection of its own keeps status and records flowing on the other.
  const waiter = o.redis.duplicate();
  const deadline = Date.now() + o.timeoutMs;
  try {
    // The point's clients refuse commands while offline (enableOfflineQueue off): wait until it is ready.
    await waitForReady(waiter, 'the start barrier', o.timeoutMs);
    while (!o.stopped()) {
      if (Date.now() > deadline) {
        const now = await o.redis.get(o.readyKey).catch(() => null);
        throw new BarrierTimeoutError(
          `${now ?? '?'} of ${o.clients} load generators of the point were ready after ${Math.round(o.timeoutMs / 1000)} s; the others died or are still starting (see their logs)`,
        );
      }
      if ((await waiter.blpop(o.goKey, 1)) !== null) return;
    }
  } finally {
    waiter.disconnect();
  }
}
