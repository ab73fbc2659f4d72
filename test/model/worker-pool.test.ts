// WorkerPool: FIFO order, both cancellation modes, counters that add up, exactly one onEnd per attempt.

import { describe, expect, it } from 'vitest';
import type { AttemptEnd } from '../../contract/index.ts';
import { ManualClock } from '../../library/index.ts';
import { type PoolTicket, WorkerPool } from '../../model/index.ts';

interface Seen {
  id: number;
  worker: number;
  start: number;
  end: number;
  ended: AttemptEnd | '';
  ends: number;
}

function harness(workers: number, cancellation: 'ignore' | 'propagate') {
  const clock = new ManualClock();
  const pool = new WorkerPool(clock, { workers, cancellation });
  const seen: Seen[] = [];
  const submit = (serviceMs: number): PoolTicket => {
    const s: Seen = { id: seen.length, worker: -1, start: Number.NaN, end: Number.NaN, ended: '', ends: 0 };
    seen.push(s);
    return pool.submit({
      serviceMs,
      onStart(w, now) {
        s.worker = w;
        s.start = now;
      },
      onEnd(ended, now) {
        s.ended = ended;
        s.end = now;
        s.ends++;
      },
    });
  };
  return { clock, pool, seen, submit };
}

describe('WorkerPool', () => {
  it('serves in FIFO order with N workers and counts busy time', () => {
    const { clock, pool, seen, submit } = harness(2, 'ignore');
    submit(10);
    submit(5);
    submit(1);
    submit(1);
    expect(pool.queueLength).toBe(2);
    expect(pool.busyWorkers).toBe(2);
    clock.runAll();
    expect(seen.map((s) => [s.start, s.end])).toEqual([
      [0, 10],
      [0, 5],
      [5, 6],
      [6, 7],
    ]);
    const st = pool.stats();
    expect(st.served).toBe(4);
    expect(st.busyMs).toBe(17);
    expect(st.maxQueueLength).toBe(2);
    // queue: 2 waiting during [0,5), 1 during [5,6)
    expect(st.queueAreaMs).toBe(11);
    expect(pool.inFlight).toBe(0);
  });

  it('ignore: a cancelled attempt stays queued and holds its worker for its whole service', () => {
    const { clock, pool, seen, submit } = harness(1, 'ignore');
    const a = submit(10);
    const b = submit(10);
    clock.advance(2);
    a.cancel();
    b.cancel();
    b.cancel();
    expect(pool.queueLength).toBe(1);
    clock.runAll();
    expect(seen.map((s) => [s.ended, s.start, s.end, s.ends])).toEqual([
      ['served', 0, 10, 1],
      ['served', 10, 20, 1],
    ]);
    const st = pool.stats();
    expect(st).toMatchObject({
      served: 2,
      cancelRequests: 2,
      cancelledQueued: 0,
      cancelledInService: 0,
      busyMs: 20,
    });
  });

  it('propagate: a queued attempt leaves the queue, one in service frees its worker at once', () => {
    const { clock, pool, seen, submit } = harness(1, 'propagate');
    const a = submit(10);
    const b = submit(10);
    submit(3);
    clock.advance(2);
    b.cancel();
    expect(pool.queueLength).toBe(1);
    a.cancel();
    // the third attempt took the freed worker at t=2
    expect(pool.busyWorkers).toBe(1);
    clock.runAll();
    expect(seen.map((s) => [s.ended, s.start, s.end, s.ends])).toEqual([
      ['cancelled-in-service', 0, 2, 1],
      ['cancelled-queued', Number.NaN, 2, 1],
      ['served', 2, 5, 1],
    ]);
    a.cancel();
    const st = pool.stats();
    expect(st).toMatchObject({
      served: 1,
      cancelRequests: 2,
      cancelledQueued: 1,
      cancelledInService: 1,
      busyMs: 5,
    });
    expect(clock.pending()).toBe(0);
  });

  it('an attempt submitted from onEnd does not overtake the queue', () => {
    const clock = new ManualClock();
    const pool = new WorkerPool(clock, { workers: 1, cancellation: 'ignore' });
    const order: string[] = [];
    pool.submit({
      serviceMs: 1,
      onEnd() {
        order.push('a');
        pool.submit({ serviceMs: 1, onStart: () => order.push('start c'), onEnd: () => order.push('c') });
      },
    });
    pool.submit({ serviceMs: 1, onStart: () => order.push('start b'), onEnd: () => order.push('b') });
    clock.runAll();
    // the worker freed by b takes c before b's end is reported
    expect(order).toEqual(['start b', 'a', 'start c', 'b', 'c']);
  });

  it('refuses to reconfigure while busy and accepts it when idle', () => {
    const { clock, pool, submit } = harness(1, 'ignore');
    submit(1);
    expect(() => pool.reconfigure({ workers: 4, cancellation: 'propagate' })).toThrow(/idle/);
    clock.runAll();
    pool.reconfigure({ workers: 4, cancellation: 'propagate' });
    expect(pool.workers).toBe(4);
    expect(pool.cancellation).toBe('propagate');
    expect(() => new WorkerPool(clock, { workers: 0, cancellation: 'ignore' })).toThrow(/workers/);
  });

  it('grows its queue past the initial ring and keeps order', () => {
    const { clock, seen, submit } = harness(1, 'propagate');
    const tickets = Array.from({ length: 3000 }, () => submit(1));
    for (let i = 1; i < 3000; i += 2) tickets[i].cancel();
    clock.runAll();
    const served = seen.filter((s) => s.ended === 'served');
    expect(served.length).toBe(1500);
    expect(served.every((s, k) => s.id === 2 * k && s.start === k)).toBe(true);
  });
});
