// BalancerPolicy on a ManualClock: each strategy's pick, hedges to another replica, the client's in-flight
// count per replica (answered and cancelled attempts leave it), determinism from the injected draw, bad options.
import { describe, expect, it } from 'vitest';
import {
  type BalancerDraw,
  type BalancerName,
  BalancerPolicy,
  ConfigError,
  type HedgeTarget,
  ManualClock,
  pipeline,
} from '../../library/index.ts';
import { scripted } from './scripted.ts';

// A counter-based stand-in: a fixed pure function of (call, attempt, k), no ambient randomness.
const hashDraw: BalancerDraw = (call, attempt, k) => {
  let h = Math.imul(call + 1, 0x9e3779b1) ^ Math.imul(attempt + 7, 0x85ebca6b) ^ Math.imul(k + 3, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
};

function setup(
  strategy: BalancerName,
  replicas: number,
  ms: (call: number, attempt: number) => number,
  o: { hedge?: boolean; hedgeTo?: HedgeTarget; draw?: BalancerDraw; attempts?: number } = {},
) {
  const clock = new ManualClock();
  const p = pipeline(clock);
  if (o.hedge) p.hedge({ delayMs: 20, budgetPercent: 0, maxAttempts: o.attempts ?? 2 });
  p.balance({ replicas, strategy, hedgeTo: o.hedgeTo, draw: o.draw ?? hashDraw });
  const s = scripted(clock, (c, a) => ({ ms: ms(c, a) }));
  const run = p.compose(s.op);
  const states = new Map<number, ReturnType<typeof p.newCall>>();
  const call = (i: number) => {
    const st = p.newCall(i);
    states.set(i, st);
    return run(st, 1, () => {});
  };
  return { clock, p, balancer: p.balancerPolicy!, call, states, s };
}

describe('BalancerPolicy strategies', () => {
  it('round-robin cycles through the replicas in order', () => {
    const t = setup('round-robin', 3, () => 5);
    for (let i = 0; i < 7; i++) t.call(i);
    expect([...t.states.values()].map((s) => s.replicas![1])).toEqual([0, 1, 2, 0, 1, 2, 0]);
    t.clock.runAll();
    expect(t.balancer.snapshot()).toEqual({ sent: [3, 2, 2], outstanding: [0, 0, 0] });
  });

  it('random follows the draw: floor(u · R), the same for the same draws', () => {
    const t = setup('random', 4, () => 5);
    for (let i = 0; i < 50; i++) t.call(i);
    const got = [...t.states.values()].map((s) => s.replicas![1]);
    expect(got).toEqual(got.map((_, i) => Math.floor(hashDraw(i, 1, 0) * 4)));
    expect(new Set(got).size).toBe(4);
  });

  it('least-outstanding sends to the replica with the fewest attempts in flight from this client', () => {
    // Calls 0..2 stay long on three replicas; call 3 must go to the fourth, the only idle one.
    const t = setup('least-outstanding', 4, (c) => (c < 3 ? 1000 : 5));
    for (let i = 0; i < 3; i++) t.call(i);
    const busy = new Set([0, 1, 2].map((i) => t.states.get(i)!.replicas![1]));
    expect(busy.size).toBe(3);
    t.call(3);
    const idle = [0, 1, 2, 3].find((r) => !busy.has(r));
    expect(t.states.get(3)!.replicas![1]).toBe(idle);
    expect(t.balancer.snapshot().outstanding).toEqual([1, 1, 1, 1]);
  });

  it('two-choices takes the less loaded of its two draws', () => {
    // Replica 0 holds many long attempts; whenever both choices are drawn, 0 loses unless both are 0 (never).
    let calls = 0;
    const draw: BalancerDraw = (call, attempt, k) => (call < 10 ? 0 : hashDraw(call, attempt, k));
    const t = setup('two-choices', 2, () => 1000, { draw });
    for (; calls < 10; calls++) t.call(calls);
    // The first ten drew (0, 0 → 1) — b skips a, so the two choices are always distinct: 0 vs 1, fewer wins.
    const first = [...t.states.values()].map((s) => s.replicas![1]);
    expect(first.filter((r) => r === 0).length).toBe(5);
    for (; calls < 30; calls++) t.call(calls);
    const snap = t.balancer.snapshot();
    expect(Math.abs(snap.outstanding[0] - snap.outstanding[1])).toBeLessThanOrEqual(1);
  });
});

describe('BalancerPolicy and hedges', () => {
  it('hedgeTo other: a hedge never goes to a replica this call already used', () => {
    const t = setup('random', 2, (_c, a) => (a === 1 ? 100 : 10), { hedge: true, hedgeTo: 'other' });
    for (let i = 0; i < 40; i++) t.call(i);
    t.clock.runAll();
    for (const s of t.states.values()) {
      expect(s.attempts).toBe(2);
      expect(s.replicas![2]).toBe(1 - s.replicas![1]);
    }
    expect(t.balancer.snapshot().outstanding).toEqual([0, 0]);
  });

  it('hedgeTo any: a hedge may land on the same replica', () => {
    const t = setup('random', 2, (_c, a) => (a === 1 ? 100 : 10), { hedge: true, hedgeTo: 'any' });
    for (let i = 0; i < 40; i++) t.call(i);
    t.clock.runAll();
    const same = [...t.states.values()].filter((s) => s.replicas![2] === s.replicas![1]).length;
    expect(same).toBeGreaterThan(5);
  });

  it('more attempts than replicas: once every replica is used, any replica will do', () => {
    const t = setup('round-robin', 2, () => 100, { hedge: true, hedgeTo: 'other', attempts: 3 });
    t.call(0);
    t.clock.runAll();
    const s = t.states.get(0)!;
    expect(s.attempts).toBe(3);
    expect([s.replicas![1], s.replicas![2]].sort()).toEqual([0, 1]);
    expect([0, 1]).toContain(s.replicas![3]);
  });

  it('a cancelled loser leaves the in-flight count at once, and a late answer is ignored', () => {
    const t = setup('least-outstanding', 2, (_c, a) => (a === 1 ? 100 : 10), { hedge: true });
    t.call(0);
    t.clock.runUntil(25);
    expect(t.balancer.snapshot().outstanding).toEqual([1, 1]);
    t.clock.runUntil(30);
    // The hedge won at 30, the first attempt was cancelled: nothing in flight from this client.
    expect(t.balancer.snapshot().outstanding).toEqual([0, 0]);
    expect(t.s.live()).toBe(0);
    expect(t.clock.pending()).toBe(0);
  });
});

describe('BalancerPolicy options', () => {
  const bad: [string, object, string][] = [
    ['replicas 0', { replicas: 0, draw: hashDraw }, 'balancer.replicas'],
    ['replicas 1.5', { replicas: 1.5, draw: hashDraw }, 'balancer.replicas'],
    ['unknown strategy', { replicas: 2, strategy: 'fastest', draw: hashDraw }, 'balancer.strategy'],
    ['unknown hedgeTo', { replicas: 2, hedgeTo: 'same', draw: hashDraw }, 'balancer.hedgeTo'],
    ['random without a draw', { replicas: 2, strategy: 'random' }, 'balancer.draw'],
    ['a typo', { replicas: 2, draw: hashDraw, hedgeto: 'any' }, 'balancer.hedgeto'],
  ];
  for (const [what, options, field] of bad) {
    it(`refuses ${what}, naming ${field}`, () => {
      const e = (() => {
        try {
          new BalancerPolicy(options as never);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).field).toBe(field);
      expect((e as ConfigError).code).toBe('HB_CONFIG_INVALID');
    });
  }

  it('round-robin needs no draw; one replica always gets replica 0', () => {
    expect(() => new BalancerPolicy({ replicas: 3, strategy: 'round-robin' })).not.toThrow();
    const t = setup('two-choices', 1, () => 5);
    for (let i = 0; i < 5; i++) t.call(i);
    expect([...t.states.values()].map((s) => s.replicas![1])).toEqual([0, 0, 0, 0, 0]);
  });
});
