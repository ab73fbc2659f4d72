// Watches one running point through its Redis status hash: progress, completion, and every way it can
// go wrong — the generator dies or hangs (stale heartbeat), the target dies, the point overruns its time.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** The status hash fields the watcher reads (all strings in Redis). */
export interface StatusSnapshot {
  state?: string;
  sent?: string;
  completed?: string;
  inflight?: string;
  p99_ms?: string;
  send_lag_p99_ms?: string;
  heartbeat_ms?: string;
  error?: string;
}

/** How a watch ended. */
export type WatchOutcome =
  | { kind: 'done' }
  | { kind: 'failed'; reason: string }
  | { kind: 'interrupted'; reason: string };

/** What the watcher needs. Liveness checks are functions so local and SSH hosts look the same. */
export interface WatchOptions {
  redis: Redis;
  statusKey: string;
  loadgenAlive: () => Promise<boolean>;
  targetAlive: () => Promise<boolean>;
  /** Extra words for a failure reason (e.g. the generator's log tail). */
  loadgenLog: () => Promise<string>;
  signal: AbortSignal;
  onStatus: (s: StatusSnapshot, elapsedMs: number) => void;
  /** The whole point's budget, ms. */
  timeoutMs: number;
  /** No change in the status hash (heartbeat, counters) for this long = the generator hangs. */
  staleMs: number;
  /** How long the generator may take to write its first status. */
  startupMs: number;
  pollMs?: number;
  /** Liveness (process) checks happen at most this often, ms (each costs an ssh round trip remotely). */
  aliveEveryMs?: number;
}

/** Polls until the point is done, failed, timed out, stale, or the signal aborts. */
export async function watchPoint(o: WatchOptions): Promise<WatchOutcome> {
  const t0 = Date.now();
  const pollMs = o.pollMs ?? 250;
  const aliveEveryMs = o.aliveEveryMs ?? 1_000;
  let lastSig = '';
  let lastChange = t0;
  let lastAlive = t0;
  let seen = false;
  let redisDownSince: number | null = null;

  for (;;) {
    if (o.signal.aborted) return { kind: 'interrupted', reason: String(o.signal.reason ?? 'interrupted') };
    const now = Date.now();
    let s: StatusSnapshot | null = null;
    try {
      s = (await o.redis.hgetall(o.statusKey)) as StatusSnapshot;
      redisDownSince = null;
    } catch {
      redisDownSince ??= now;
    }
    if (s && Object.keys(s).length > 0) {
      seen = true;
      o.onStatus(s, now - t0);
      if (s.state === 'done') return { kind: 'done' };
      if (s.state === 'failed') {
        return { kind: 'failed', reason: `the load generator failed: ${s.error || 'no reason given'}` };
      }
      const sig = `${s.heartbeat_ms}|${s.sent}|${s.completed}`;
      if (sig !== lastSig) {
        lastSig = sig;
        lastChange = now;
      }
    }
    if (now - t0 > o.timeoutMs) {
      return {
        kind: 'failed',
        reason: `timed out after ${Math.round(o.timeoutMs / 1000)} s (the point's time budget)`,
      };
    }
    if (now - lastAlive >= aliveEveryMs) {
      lastAlive = now;
      if (!(await o.targetAlive())) {
        return { kind: 'failed', reason: 'the target server died during the point' };
      }
      if (!(await o.loadgenAlive())) {
        // It may have finished between our two reads: look once more before calling it dead.
        const again = (await o.redis.hgetall(o.statusKey).catch(() => ({}))) as StatusSnapshot;
        if (again.state === 'done') return { kind: 'done' };
        return {
          kind: 'failed',
          reason: `the load generator exited before finishing (${again.state ?? 'no status'}; log: ${await o.loadgenLog()})`,
        };
      }
    }
    // Staleness is judged on the generator's own heartbeat; while Redis itself is unreachable the generator
    // buffers, so only its death (above) or the time budget ends the point.
    if (redisDownSince === null) {
      if (!seen && now - t0 > o.startupMs) {
        return {
          kind: 'failed',
          reason: `the load generator wrote no status within ${Math.round(o.startupMs / 1000)} s (log: ${await o.loadgenLog()})`,
        };
      }
      if (seen && now - lastChange > o.staleMs) {
        return {
          kind: 'failed',
          reason: `no progress from the load generator for ${Math.round(o.staleMs / 1000)} s (stale heartbeat)`,
        };
      }
    } else {
      lastChange = now;
    }
    await sleep(pollMs);
  }
}
