// WorkerPool.peerCancel, the server's own drop of a tied copy: it removes a queued attempt in both cancellation
// modes and says so, leaves an attempt in service (or ended, or another pool's) alone, and keeps the counters
// adding up without counting a client's cancel.

import { describe, expect, it } from 'vitest';
import type { AttemptEnd } from '../../contract/index.ts';
import { ManualClock } from '../../library/index.ts';
import { type Cancellation, type PoolTicket, WorkerPool } from '../../model/index.ts';

function harness(cancellation: Cancellation) {
  const clock = new ManualClock();
  const pool = new WorkerPool(clock, { workers: 1, cancellation });
  const ends: { id: number; ended: AttemptEnd; at: number; start: number }[] = [];
  const submit = (id: number, serviceMs: number): PoolTicket => {
    let start = Number.NaN;
    return pool.submit({
      serviceMs,
      onStart: (_w, now) => {
        start = now;
      },
      onEnd: (ended, at) => ends.push({ id, ended, at, start }),
    });
  };
  return { clock, pool, ends, submit };
}

describe('WorkerPool.peerCancel', () => {
  for (const mode of ['ignore', 'propagate'] as const) {
    it(`${mode}: removes a queued attempt before it costs service, and reports that it did`, () => {
      const { clock, pool, ends, submit } = harness(mode);
      submit(1, 10);
      const queued = submit(2, 10);
      submit(3, 10);
      clock.advance(4);
      expect(pool.queueLength).toBe(2);
      expect(pool.peerCancel(queued)).toBe(true);
      expect(pool.queueLength).toBe(1);
      expect(ends).toEqual([{ id: 2, ended: 'cancelled-queued', at: 4, start: Number.NaN }]);
      // A second peer cancel, or the client's own cancel afterwards, finds nothing to do.
      expect(pool.peerCancel(queued)).toBe(false);
      queued.cancel();
      clock.runAll();
      expect(ends.map((e) => [e.id, e.ended, e.start, e.at])).toEqual([
        [2, 'cancelled-queued', Number.NaN, 4],
        [1, 'served', 0, 10],
        [3, 'served', 10, 20],
      ]);
      const s = pool.stats();
      expect(s).toMatchObject({ submitted: 3, served: 2, cancelledQueued: 1, cancelRequests: 0, busyMs: 20 });
      expect(s.served + s.cancelledQueued + s.cancelledInService).toBe(s.submitted);
      // Two waited during [0, 4), then one until 10.
      expect(s.queueAreaMs).toBe(2 * 4 + 1 * 6);
    });

    it(`${mode}: does nothing to an attempt in service or ended`, () => {
      const { clock, pool, ends, submit } = harness(mode);
      const running = submit(1, 10);
      clock.advance(3);
      expect(pool.peerCancel(running)).toBe(false);
      expect(pool.busyWorkers).toBe(1);
      clock.runAll();
      expect(ends).toEqual([{ id: 1, ended: 'served', at: 10, start: 0 }]);
      expect(pool.peerCancel(running)).toBe(false);
      expect(pool.stats()).toMatchObject({ served: 1, cancelledQueued: 0, busyMs: 10 });
    });
  }

  it('ignore: removes an attempt the client already cancelled (the client cancel had left it queued)', () => {
    const { clock, pool, ends, submit } = harness('ignore');
    submit(1, 10);
    const queued = submit(2, 10);
    queued.cancel();
    expect(pool.queueLength).toBe(1);
    expect(pool.peerCancel(queued)).toBe(true);
    clock.runAll();
    expect(ends.map((e) => [e.id, e.ended])).toEqual([
      [2, 'cancelled-queued'],
      [1, 'served'],
    ]);
    expect(pool.stats()).toMatchObject({ cancelRequests: 1, cancelledQueued: 1, busyMs: 10 });
  });

  it("refuses another pool's ticket", () => {
    const a = harness('propagate');
    const b = harness('propagate');
    a.submit(1, 10);
    const queued = a.submit(2, 10);
    expect(b.pool.peerCancel(queued)).toBe(false);
    expect(a.pool.queueLength).toBe(1);
  });
});
