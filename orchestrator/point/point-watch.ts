// Watches one running point through its Redis status hash — or the K hashes of its K load generators —
// progress, completion, and every way it can go wrong: a generator dies or hangs (stale heartbeat), the
// target dies, the point overruns its time.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { StatusHash } from '../../contract/index.ts';

/** How a watch ended. */
export type WatchOutcome =
  | { kind: 'done' }
  | { kind: 'failed'; reason: string }
  | { kind: 'interrupted'; reason: string };

/** One load generator of the point: its status hash, whether its process lives, its log's tail. */
export interface GeneratorWatch {
  statusKey: string;
  alive: () => Promise<boolean>;
  /** Extra words for a failure reason (e.g. the generator's log tail). */
  log: () => Promise<string>;
}

/** What the watcher needs besides the generators. Liveness checks are functions so local and SSH hosts look the same. */
export interface WatchCommon {
  redis: Redis;
  targetAlive: () => Promise<boolean>;
  signal: AbortSignal;
  /** Every poll: the status (with several generators, their sum: sent, completed, in flight; worst p99s). */
  onStatus: (s: StatusHash, elapsedMs: number) => void;
  /** The whole point's budget, ms. */
  timeoutMs: number;
  /** No change in a status hash (heartbeat, counters) for this long = its generator hangs. */
  staleMs: number;
  /** How long a generator may take to write its first status. */
  startupMs: number;
  pollMs?: number;
  /** Liveness (process) checks happen at most this often, ms (each costs an ssh round trip remotely). */
  aliveEveryMs?: number;
}

/** Per-generator state of the watch. */
interface Watched extends GeneratorWatch {
  /** How failure reasons name it: "the load generator", or "the load generator of client i (of K)". */
  who: string;
  seen: boolean;
  done: boolean;
  lastSig: string;
  lastChange: number;
  last: StatusHash | null;
}

/**
 * Polls the point's K generators until every one is done, or one fails (the point fails with that
 * generator's reason), or the point times out or the signal aborts.
 */
export async function watchGenerators(
  o: WatchCommon & { generators: readonly GeneratorWatch[] },
): Promise<WatchOutcome> {
  const t0 = Date.now();
  const pollMs = o.pollMs ?? 250;
  const aliveEveryMs = o.aliveEveryMs ?? 1_000;
  const K = o.generators.length;
  const gens: Watched[] = o.generators.map((g, i) => ({
    ...g,
    who: K === 1 ? 'the load generator' : `the load generator of client ${i} (of ${K})`,
    seen: false,
    done: false,
    lastSig: '',
    lastChange: t0,
    last: null,
  }));
  // One generator's words as they always were; one of several adds its log, which names what went wrong.
  const withLog = async (g: Watched, text: string) => (K === 1 ? text : `${text} (log: ${await g.log()})`);
  let lastAlive = t0;
  let redisDownSince: number | null = null;

  for (;;) {
    if (o.signal.aborted) return { kind: 'interrupted', reason: String(o.signal.reason ?? 'interrupted') };
    const now = Date.now();
    let snaps: (StatusHash | null)[] | null = null;
    try {
      snaps = (await Promise.all(gens.map((g) => o.redis.hgetall(g.statusKey)))) as StatusHash[];
      redisDownSince = null;
    } catch {
      redisDownSince ??= now;
    }
    if (snaps !== null) {
      let failed: Watched | null = null;
      for (const [i, g] of gens.entries()) {
        const s = snaps[i];
        if (!s || Object.keys(s).length === 0) continue;
        g.seen = true;
        g.last = s;
        if (s.state === 'done') g.done = true;
        if (s.state === 'failed') failed ??= g;
        const sig = `${s.heartbeat_ms}|${s.sent}|${s.completed}`;
        if (sig !== g.lastSig) {
          g.lastSig = sig;
          g.lastChange = now;
        }
      }
      if (gens.some((g) => g.seen)) o.onStatus(K === 1 ? gens[0].last! : sumStatus(gens), now - t0);
      if (failed !== null) {
        const reason = `${failed.who} failed: ${failed.last?.error || 'no reason given'}`;
        return { kind: 'failed', reason: await withLog(failed, reason) };
      }
      if (gens.every((g) => g.done)) return { kind: 'done' };
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
      for (const g of gens) {
        if (g.done || (await g.alive())) continue;
        // It may have finished between our two reads: look once more before calling it dead.
        const again = (await o.redis.hgetall(g.statusKey).catch(() => ({}))) as StatusHash;
        if (again.state === 'done') {
          g.done = true;
          continue;
        }
        return {
          kind: 'failed',
          reason: `${g.who} exited before finishing (${again.state ?? 'no status'}; log: ${await g.log()})`,
        };
      }
      if (gens.every((g) => g.done)) return { kind: 'done' };
    }
    // Staleness is judged on each generator's own heartbeat; while Redis itself is unreachable the
    // generators buffer, so only their death (above) or the time budget ends the point.
    if (redisDownSince === null) {
      for (const g of gens) {
        if (g.done) continue;
        if (!g.seen && now - t0 > o.startupMs) {
          return {
            kind: 'failed',
            reason: `${g.who} wrote no status within ${Math.round(o.startupMs / 1000)} s (log: ${await g.log()})`,
          };
        }
        if (g.seen && now - g.lastChange > o.staleMs) {
          // Where it stopped (before its first send, while sending, after) and its log: a hang is rare and
          // the reason is all that is left of it.
          const s = g.last ?? {};
          const at = `sent ${s.sent ?? '?'}, completed ${s.completed ?? '?'}, in flight ${s.inflight ?? '?'}`;
          return {
            kind: 'failed',
            reason: `no progress from ${g.who} for ${Math.round(o.staleMs / 1000)} s (stale heartbeat; ${at}; log: ${await g.log()})`,
          };
        }
      }
    } else {
      for (const g of gens) g.lastChange = now;
    }
    await sleep(pollMs);
  }
}

/** The point's progress over its generators: counters summed, the worst p99s, the oldest heartbeat. */
function sumStatus(gens: readonly Watched[]): StatusHash {
  const shown = gens.filter((g) => g.last !== null).map((g) => g.last!);
  const sum = (f: keyof StatusHash) => String(shown.reduce((t, s) => t + (Number(s[f]) || 0), 0));
  const worst = (f: keyof StatusHash) => {
    const xs = shown
      .filter((s) => s[f] !== undefined && s[f] !== '')
      .map((s) => Number(s[f]))
      .filter(Number.isFinite);
    return xs.length > 0 ? String(Math.max(...xs)) : '';
  };
  return {
    state: gens.every((g) => g.done) ? 'done' : 'running',
    sent: sum('sent'),
    completed: sum('completed'),
    inflight: sum('inflight'),
    p99_ms: worst('p99_ms'),
    send_lag_p99_ms: worst('send_lag_p99_ms'),
    heartbeat_ms: String(Math.min(...shown.map((s) => Number(s.heartbeat_ms) || 0))),
  };
}
