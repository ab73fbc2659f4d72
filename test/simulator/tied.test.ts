// Tied requests in the simulator, call by call on a ManualClock: two replicas of one worker each, constant
// 10 ms service, copy 1 on replica 0 and copy 2 on replica 1 (round-robin). The copy that starts first cancels
// the other while it is queued (no service spent on it); a cancel that arrives after its copy started leaves
// both running, and the extra work is counted; gap 0 on idle replicas starts both, a 1 ms gap does not; the
// budget may refuse the second copy.

import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../contract/index.ts';
import { type CallState, ManualClock } from '../../library/index.ts';
import {
  addBalancer,
  buildPipeline,
  type Cancellation,
  DEFAULT_MODEL,
  type ModelParams,
  type ReplicaSetup,
  SINGLE_REPLICA,
  type TiedOptions,
  type TransportParams,
  WorkerPool,
} from '../../model/index.ts';
import { SimTransport } from '../../simulator/index.ts';

const MODEL: ModelParams = { ...DEFAULT_MODEL, workers: 1, service: { kind: 'constant', ms: 10 } };
const SETUP: ReplicaSetup = { ...SINGLE_REPLICA, replicas: 2, balancer: 'round-robin' };

interface Bench {
  clock: ManualClock;
  pools: WorkerPool[];
  t: SimTransport;
  records: AttemptRecord[];
  /** Starts call `i`; its end time lands in `ends[i]`. */
  call(i: number): CallState;
  ends: number[];
  /** Occupies replica r's worker for `ms` (another client's work). */
  block(r: number, ms: number): void;
}

function bench(tied: TiedOptions, cancellation: Cancellation, net?: TransportParams): Bench {
  const clock = new ManualClock();
  const pools = [0, 1].map(() => new WorkerPool(clock, { workers: 1, cancellation }));
  const records: AttemptRecord[] = [];
  const config = { name: 'tied', tied };
  const copies = (tied.cancel ?? 'on-start') === 'on-start' ? (tied.copies ?? 2) : 0;
  const t = new SimTransport(pools, MODEL, 1, 0, (r) => records.push(r), SETUP, net, copies);
  const p = addBalancer(buildPipeline(config, clock), SETUP, 1);
  const run = p.compose(t.op);
  const ends: number[] = [];
  return {
    clock,
    pools,
    t,
    records,
    ends,
    call(i) {
      const s = p.newCall(i);
      run(s, 1, () => {
        ends[i] = clock.now();
        t.ties?.forget(i);
      });
      return s;
    },
    block(r, ms) {
      pools[r].submit({ serviceMs: ms, onEnd: () => {} });
    },
  };
}

/** The records of call `call`, by copy: [attempt, ended, start, end]. */
const copiesOf = (b: Bench, call: number) =>
  b.records
    .filter((r) => r.call === call)
    .sort((x, y) => x.attempt - y.attempt)
    .map((r) => [r.attempt, r.ended, r.startMs, r.endMs]);

const share = (t: SimTransport) => (t.busyMeasuredMs - t.winnerBusyMeasuredMs) / t.busyMeasuredMs;

describe('tied copies cancel each other from their servers', () => {
  for (const mode of ['ignore', 'propagate'] as const) {
    it(`${mode}: the copy that starts first removes its queued peer, which costs no service`, () => {
      const b = bench({ gapMs: 0 }, mode);
      b.block(0, 5);
      b.block(1, 8);
      b.call(0);
      b.clock.runAll();
      // Copy 1 starts at 5 on replica 0 and cancels copy 2, queued on replica 1 behind its 8 ms of work.
      expect(copiesOf(b, 0)).toEqual([
        [1, 'served', 5, 15],
        [2, 'cancelled-queued', Number.NaN, 5],
      ]);
      expect(b.ends[0]).toBe(15);
      expect(b.t.ties!.counts).toEqual({
        sent: 1,
        removedQueued: 1,
        droppedOnArrival: 0,
        tooLate: 0,
        callsBothRan: 0,
      });
      expect(b.t.busyMeasuredMs).toBe(10);
      expect(share(b.t)).toBe(0);
      expect(b.pools[1].stats()).toMatchObject({ cancelledQueued: 1, cancelRequests: 0 });
    });

    it(`${mode}: a first copy that starts at once removes the peer queued behind other work`, () => {
      const b = bench({ gapMs: 0 }, mode);
      b.block(1, 8);
      b.call(0);
      b.clock.runAll();
      expect(copiesOf(b, 0)).toEqual([
        [1, 'served', 0, 10],
        [2, 'cancelled-queued', Number.NaN, 0],
      ]);
      expect(b.t.ties!.counts).toMatchObject({ removedQueued: 1, tooLate: 0 });
      expect(share(b.t)).toBe(0);
    });

    it(`${mode}: a cancel that arrives after its peer started leaves both running; the extra work is counted`, () => {
      // Requests and peer cancels take 2 ms, responses and the client's cancels none: copy 1 starts at 2 on
      // an idle replica, copy 2 (sent at 1) arrives and starts at 3, the cancel reaches it at 4.
      const net: TransportParams = {
        request: { kind: 'constant', ms: 2 },
        response: { kind: 'constant', ms: 0 },
        cancel: { kind: 'constant', ms: 0 },
      };
      const b = bench({ gapMs: 1 }, mode, net);
      b.call(0);
      b.clock.runAll();
      expect(b.ends[0]).toBe(12);
      expect(b.t.ties!.counts).toEqual({
        sent: 2,
        removedQueued: 0,
        droppedOnArrival: 0,
        tooLate: 1,
        callsBothRan: 1,
      });
      if (mode === 'ignore') {
        // The loser keeps its worker to the end of its service: 10 of 20 ms were extra.
        expect(copiesOf(b, 0)).toEqual([
          [1, 'served', 2, 12],
          [2, 'served', 3, 13],
        ]);
        expect(share(b.t)).toBe(0.5);
      } else {
        // The client cancels the loser when the winner answers, as a hedge's: it held its worker 9 ms.
        expect(copiesOf(b, 0)).toEqual([
          [1, 'served', 2, 12],
          [2, 'cancelled-in-service', 3, 12],
        ]);
        expect(share(b.t)).toBeCloseTo(9 / 19, 12);
      }
    });
  }

  it('gap 0 on idle replicas starts both copies; a 1 ms gap lets the cancel reach the second first', () => {
    const zero = bench({ gapMs: 0 }, 'propagate');
    zero.call(0);
    zero.clock.runAll();
    expect(copiesOf(zero, 0)).toEqual([
      [1, 'served', 0, 10],
      [2, 'cancelled-in-service', 0, 10],
    ]);
    expect(zero.t.ties!.counts).toMatchObject({ tooLate: 1, callsBothRan: 1, droppedOnArrival: 0 });
    expect(share(zero.t)).toBe(0.5);

    const one = bench({ gapMs: 1 }, 'propagate');
    one.call(0);
    one.clock.runAll();
    // The cancel left replica 0 at 0 and waited at replica 1 for copy 2, dropped when it came at 1.
    expect(copiesOf(one, 0)).toEqual([
      [1, 'served', 0, 10],
      [2, 'cancelled-queued', Number.NaN, 1],
    ]);
    expect(one.t.ties!.counts).toEqual({
      sent: 1,
      removedQueued: 0,
      droppedOnArrival: 1,
      tooLate: 0,
      callsBothRan: 0,
    });
    expect(share(one.t)).toBe(0);
    // Both calls answered at 10: with idle replicas the gap costs nothing.
    expect([zero.ends[0], one.ends[0]]).toEqual([10, 10]);
    // The dropped copy never reached the queue.
    expect(one.pools[1].stats().submitted).toBe(0);
  });

  it('the budget must allow the second copy: refused, the call runs on its first alone', () => {
    // 50 % of calls and no reserve: the first call's deposit covers half a copy, the second's a whole one.
    const b = bench({ gapMs: 1, budgetPercent: 50, budgetMinHedgesPerSecond: 0 }, 'propagate');
    b.block(0, 20);
    const s0 = b.call(0);
    b.clock.advance(1);
    expect([s0.attempts, s0.skipped]).toEqual([1, 1]);
    b.clock.runAll();
    expect(copiesOf(b, 0)).toEqual([[1, 'served', 20, 30]]);
    const s1 = b.call(1);
    b.clock.runAll();
    expect([s1.attempts, s1.skipped]).toEqual([2, 0]);
    expect(copiesOf(b, 1)).toEqual([
      [1, 'served', 30, 40],
      [2, 'cancelled-queued', Number.NaN, 31],
    ]);
    expect(b.t.ties!.counts).toMatchObject({ sent: 2, droppedOnArrival: 1, callsBothRan: 0 });
  });

  it('cancel on-response ties nothing: both copies run as a hedge’s attempts until the first response', () => {
    const b = bench({ gapMs: 0, cancel: 'on-response' }, 'ignore');
    expect(b.t.ties).toBeUndefined();
    b.block(1, 8);
    b.call(0);
    b.clock.runAll();
    expect(copiesOf(b, 0)).toEqual([
      [1, 'served', 0, 10],
      [2, 'served', 8, 18],
    ]);
    expect(share(b.t)).toBe(0.5);
  });
});
