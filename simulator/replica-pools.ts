// R model WorkerPools, one per replica, seen as one service where the simulation needs totals (timeline,
// memory guard, counters). With one replica every total is that pool's own figure, unchanged.

import type { Clock } from '../library/index.ts';
import { type Cancellation, type PoolStats, WorkerPool } from '../model/index.ts';

/** The replicas' pools on one clock. */
export class ReplicaPools {
  readonly pools: WorkerPool[] = [];

  constructor(
    readonly clock: Clock,
    replicas: number,
    workers: number,
    cancellation: Cancellation,
  ) {
    for (let r = 0; r < replicas; r++) this.pools.push(new WorkerPool(clock, { workers, cancellation }));
  }

  /** Attempts waiting for a worker, over every replica. */
  get queueLength(): number {
    const ps = this.pools;
    if (ps.length === 1) return ps[0].queueLength;
    let n = 0;
    for (let r = 0; r < ps.length; r++) n += ps[r].queueLength;
    return n;
  }

  /** Attempts queued or in service, over every replica. */
  get inFlight(): number {
    const ps = this.pools;
    if (ps.length === 1) return ps[0].inFlight;
    let n = 0;
    for (let r = 0; r < ps.length; r++) n += ps[r].inFlight;
    return n;
  }

  /** The counters summed over replicas (maxQueueLength: the longest any one replica's queue was). */
  stats(): PoolStats {
    const all = this.replicaStats();
    if (all.length === 1) return all[0];
    const sum = { ...all[0] };
    for (let r = 1; r < all.length; r++) {
      const s = all[r];
      sum.submitted += s.submitted;
      sum.served += s.served;
      sum.cancelledQueued += s.cancelledQueued;
      sum.cancelledInService += s.cancelledInService;
      sum.cancelRequests += s.cancelRequests;
      sum.busyMs += s.busyMs;
      sum.queueAreaMs += s.queueAreaMs;
      sum.maxQueueLength = Math.max(sum.maxQueueLength, s.maxQueueLength);
    }
    return sum;
  }

  /** Each replica's counters, in replica order. */
  replicaStats(): PoolStats[] {
    return this.pools.map((p) => p.stats());
  }
}
