// The worker pool's side of tied requests, in both pool modes (the model WorkerPool on the event loop, and the
// pool thread's shared-memory rings): a tied copy reports its start (the thread's "started" event), an
// untied attempt reports none; a peer cancel removes a copy still queued, in either cancellation mode, ending
// it `byPeer` (counted as cancelled while queued, not as a client's cancel), and leaves one in service alone.

import { describe, expect, it } from 'vitest';
import type { Cancellation } from '../../model/index.ts';
import { SystemClock } from '../../runtime/index.ts';
import type { AttemptPool, PoolCallbacks, PoolEnd } from '../../target-server/attempt-pool.ts';
import { LoopPool } from '../../target-server/loop-pool.ts';
import { PoolThread } from '../../target-server/pool-thread.ts';
import { until } from './http.ts';

interface Seen {
  starts: { startMs: number; worker: number }[];
  end: PoolEnd | null;
  /** When a peer cancel found it in service (the pool thread says so; the event loop's pool does not). */
  tooLate: number[];
}

function track(tied: boolean): { seen: Seen; cb: PoolCallbacks } {
  const seen: Seen = { starts: [], end: null, tooLate: [] };
  const cb: PoolCallbacks = {
    onEnd: (e) => {
      seen.end = e;
    },
    onFail: (err) => {
      throw err;
    },
  };
  if (tied) {
    cb.onStart = (startMs, worker) => seen.starts.push({ startMs, worker });
    cb.onPeerTooLate = (atMs) => seen.tooLate.push(atMs);
  }
  return { seen, cb };
}

async function withPool(
  mode: 'loop' | 'thread',
  cancellation: Cancellation,
  body: (pool: AttemptPool, clock: SystemClock) => Promise<void>,
): Promise<void> {
  const clock = new SystemClock();
  const opts = { workers: 1, cancellation };
  const pool: AttemptPool =
    mode === 'loop'
      ? new LoopPool(clock, opts)
      : await PoolThread.start({ ...opts, priority: 'normal', log: () => {} });
  try {
    await body(pool, clock);
  } finally {
    await pool.close();
    await clock.close();
  }
}

for (const mode of ['loop', 'thread'] as const) {
  describe(`tied copies in the ${mode} pool`, () => {
    for (const cancellation of ['ignore', 'propagate'] as const) {
      it(`reports a tied copy's start, removes it while queued by a peer cancel (${cancellation} mode)`, async () => {
        await withPool(mode, cancellation, async (pool, clock) => {
          const busy = track(false);
          const queued = track(true);
          const later = track(true);
          const before = clock.now();
          pool.submit(40, busy.cb);
          const q = pool.submit(40, queued.cb);
          const l = pool.submit(20, later.cb);
          await until(() => pool.busyWorkers === 1 && pool.queueLength === 2, 'one in service, two queued');
          pool.peerCancel(q);
          await until(() => queued.seen.end !== null, 'the peer cancel to remove the queued copy');
          expect(queued.seen.end).toMatchObject({ ended: 'cancelled-queued', byPeer: true, worker: -1 });
          expect(Number.isNaN(queued.seen.end!.startMs)).toBe(true);
          expect(queued.seen.starts).toEqual([]);
          // The untied attempt reported no start; the next copy starts when the worker frees, and says so.
          await until(() => later.seen.starts.length === 1, "the later copy's start");
          expect(busy.seen.starts).toEqual([]);
          expect(busy.seen.end).toMatchObject({ ended: 'served' });
          const start = later.seen.starts[0]!;
          expect(start.worker).toBe(0);
          expect(start.startMs).toBeGreaterThanOrEqual(before + 40);
          // In service: a peer cancel is too late and changes nothing.
          pool.peerCancel(l);
          await until(() => later.seen.end !== null, 'the later copy to end');
          expect(later.seen.end).toMatchObject({ ended: 'served', startMs: start.startMs, worker: 0 });
          expect(later.seen.end!.byPeer).toBeUndefined();
          expect(later.seen.end!.endMs - start.startMs).toBeGreaterThanOrEqual(20);
          // The thread decides a cancel after the server handed it over, and says when: in service, so after the
          // start and before the end. On the event loop the server decided at once (no report).
          if (mode === 'thread') {
            expect(later.seen.tooLate).toHaveLength(1);
            expect(later.seen.tooLate[0]).toBeGreaterThan(start.startMs);
            expect(later.seen.tooLate[0]).toBeLessThan(later.seen.end!.endMs);
          } else expect(later.seen.tooLate).toEqual([]);
          // The pool's server dropped it: a queued cancel, not a client's.
          expect(pool.stats()).toMatchObject({
            submitted: 3,
            served: 2,
            cancelledQueued: 1,
            cancelRequests: 0,
          });
          expect(pool.inFlight).toBe(0);
        });
      });
    }

    it('a peer cancel of an attempt already ended, or twice, does nothing', async () => {
      await withPool(mode, 'ignore', async (pool) => {
        const a = track(true);
        const t = pool.submit(1, a.cb);
        await until(() => a.seen.end !== null, 'the copy to end');
        pool.peerCancel(t);
        pool.peerCancel(t);
        const b = track(true);
        pool.submit(1, b.cb);
        await until(() => b.seen.end !== null, 'the next copy to end');
        expect(a.seen.starts).toHaveLength(1);
        expect(a.seen.tooLate).toEqual([]);
        expect(pool.stats()).toMatchObject({ submitted: 2, served: 2, cancelledQueued: 0 });
      });
    });
  });
}
