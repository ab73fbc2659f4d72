// Where a tied copy's siblings go (model/tied-peers.ts), against the simulator itself: the simulator's balancer
// picks copy k's replica only when copy k is sent (gapMs later, with the queues moved on), and the pure
// function the load generator tags copy 1 with must name those very replicas — for the random balancer on any
// number of replicas, and for any balancer when every replica holds a copy. The rule that refuses the rest.

import { describe, expect, it } from 'vitest';
import { type BalancerName, ManualClock } from '../../library/index.ts';
import {
  addBalancer,
  balancerDraw,
  buildPipeline,
  DEFAULT_MODEL,
  type ModelParams,
  type ReplicaSetup,
  SINGLE_REPLICA,
  tiedPeers,
  tiedPeersIssue,
  tiedPeersKnown,
  WorkerPool,
} from '../../model/index.ts';
import { SimTransport } from '../../simulator/index.ts';

const MODEL: ModelParams = { ...DEFAULT_MODEL, workers: 1, service: { kind: 'constant', ms: 10 } };

/** Each call's copies' replicas as the simulator sent them (index = copy number). */
function simulatedReplicas(R: number, copies: number, balancer: BalancerName, seed: number): number[][] {
  const clock = new ManualClock();
  const pools = Array.from(
    { length: R },
    () => new WorkerPool(clock, { workers: 1, cancellation: 'ignore' }),
  );
  const setup: ReplicaSetup = { ...SINGLE_REPLICA, replicas: R, balancer };
  const t = new SimTransport(pools, MODEL, seed, 0, undefined, setup, undefined, copies);
  const config = { name: 'tied', tied: { gapMs: 1, copies, budgetPercent: 0 } };
  const p = addBalancer(buildPipeline(config, clock), setup, seed);
  const seen: number[][] = [];
  const run = p.compose<void>((cs, attempt, done) => {
    seen[cs.call] ??= [];
    seen[cs.call]![attempt] = cs.replicas![attempt]!;
    return t.op(cs, attempt, done);
  });
  // A call every 2 ms: queues build up, so later copies' choices follow the queues (for the balancers that look).
  for (let i = 0; i < 400; i++) {
    clock.schedule(() => {
      run(p.newCall(i), 1, () => t.ties?.forget(i));
    }, i * 2);
  }
  clock.runAll();
  return seen;
}

describe('tiedPeers: the siblings the load generator names are where the simulator sends them', () => {
  for (const [R, copies] of [
    [2, 2],
    [4, 2],
    [4, 3],
    [5, 4],
  ] as const) {
    it(`random balancer, ${R} replicas, ${copies} copies, 1 ms apart`, () => {
      const seed = 7;
      const sim = simulatedReplicas(R, copies, 'random', seed);
      const s = { replicas: R, copies, balancer: 'random' as const, draw: balancerDraw(seed) };
      let checked = 0;
      for (const [call, rs] of sim.entries()) {
        expect(rs.length, `call ${call}: every copy was sent`).toBe(copies + 1);
        // What copy 1's request names, when nothing but copy 1's replica is known yet.
        expect(tiedPeers(s, call, 1, [-1, rs[1]!]), `call ${call}`).toEqual(rs.slice(2));
        // … and every later copy, with its call's earlier replicas known.
        for (let k = 2; k <= copies; k++) {
          const others = rs.filter((_, j) => j >= 1 && j !== k);
          expect(tiedPeers(s, call, k, rs.slice(0, k + 1)), `call ${call} copy ${k}`).toEqual(others);
        }
        checked++;
      }
      expect(checked).toBe(400);
    });
  }

  it('any balancer when every replica holds a copy: the other replicas', () => {
    for (const balancer of ['two-choices', 'least-outstanding', 'round-robin'] as const) {
      const sim = simulatedReplicas(3, 3, balancer, 3);
      const s = { replicas: 3, copies: 3, balancer, draw: balancerDraw(3) };
      for (const [call, rs] of sim.entries()) {
        for (let k = 1; k <= 3; k++) {
          const others = rs.filter((_, j) => j >= 1 && j !== k).sort();
          expect(tiedPeers(s, call, k, rs.slice(0, k + 1)), `${balancer} call ${call}`).toEqual(others);
        }
      }
    }
  });

  it('refuses a balancer that picks a later copy from the client’s state, with more replicas than copies', () => {
    expect(tiedPeersKnown('random', 8, 2)).toBe(true);
    expect(tiedPeersKnown('two-choices', 2, 2)).toBe(true);
    expect(tiedPeersKnown('two-choices', 4, 2)).toBe(false);
    const s = { replicas: 4, copies: 2, balancer: 'two-choices' as const, draw: balancerDraw(1) };
    expect(() => tiedPeers(s, 0, 1, [-1, 0])).toThrow(RangeError);
    const config = { name: 'tied, gap 1 ms', tied: { gapMs: 1 } };
    expect(tiedPeersIssue(config, 'random', 4)).toBeNull();
    expect(tiedPeersIssue({ name: 'h', hedge: { delayMs: 1 } }, 'two-choices', 4)).toBeNull();
    expect(
      tiedPeersIssue({ ...config, tied: { gapMs: 1, cancel: 'on-response' } }, 'two-choices', 4),
    ).toBeNull();
    const why = tiedPeersIssue(config, 'least-outstanding', 4)!;
    expect(why).toMatch(/^"least-outstanding" with 4 replicas cannot tie "tied, gap 1 ms" on the real clock/);
    expect(why).toMatch(/use balancer "random" .*, or replicas ≤ copies \(2/);
  });
});
