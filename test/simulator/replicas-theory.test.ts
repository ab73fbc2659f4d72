// Replicas behind a balancer, against theory and against the study's warning:
// - R replicas with random balancing are R independent M/M/c queues at the same per-replica load (a Poisson
//   stream split at random stays Poisson), so the mean queue wait matches Erlang C for one replica within 2 %
//   (the tolerance of theory.test.ts), and clearly not the pooled M/M/(R·c) queue;
// - least-outstanding and two-choices beat random on p99 at load 0.7 (the power-of-two-choices effect);
// - with correlation 1 a hedge shares its call's straggler and cannot cut p99.9 below no hedge, while with
//   correlation 0 it cuts it several-fold;
// - today's model is untouched: one replica with every default gives the same row as a point without dims.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, type ModelParams, type Point, referenceConfig } from '../../model/index.ts';
import { erlangC } from '../../probe/index.ts';
import { runPoint } from '../../simulator/index.ts';

const exponential = (workers: number): ModelParams => ({
  ...DEFAULT_MODEL,
  workers,
  service: { kind: 'exponential', meanMs: 10 },
});

type Dims = {
  replicas?: number;
  balancer?: string;
  hedgeTo?: string;
  correlation?: number;
  slowReplica?: number;
};

function point(o: {
  config?: string;
  load: number;
  seed: number;
  calls: number;
  model: ModelParams;
  dims?: Dims;
  warmupFraction?: number;
}): Point {
  return {
    config: structuredClone(referenceConfig(o.config ?? 'no hedge')!),
    load: o.load,
    cancellation: 'ignore',
    seed: o.seed,
    calls: o.calls,
    warmupFraction: o.warmupFraction ?? 0.05,
    model: o.model,
    ...(o.dims === undefined ? {} : { dims: o.dims }),
  } as Point;
}

const REPLICATIONS = 20;

describe('replicas with random balancing = independent M/M/c queues', () => {
  it('4 replicas × M/M/2 at ρ = 0.7: mean wait matches Erlang C of one replica, not of the pooled M/M/8', () => {
    let waitSum = 0;
    let started = 0;
    const means: number[] = [];
    for (let seed = 1; seed <= REPLICATIONS; seed++) {
      const r = runPoint(
        point({
          load: 0.7,
          seed,
          calls: 4_000_000 / REPLICATIONS,
          model: exponential(2),
          dims: { replicas: 4, balancer: 'random' },
          warmupFraction: 0.01,
        }),
      );
      expect(r.collapse.collapsed).toBe(false);
      expect(r.replicas).toHaveLength(4);
      waitSum += r.meanWaitMs * r.startedMeasured;
      started += r.startedMeasured;
      means.push(r.meanWaitMs);
    }
    const mean = waitSum / started;
    const m = means.reduce((x, y) => x + y, 0) / REPLICATIONS;
    const sd = Math.sqrt(means.reduce((x, y) => x + (y - m) ** 2, 0) / (REPLICATIONS - 1));
    const halfWidth = (2.093 * sd) / Math.sqrt(REPLICATIONS);
    const perReplica = (erlangC(2, 0.7) * 10) / (2 * (1 - 0.7));
    const pooled = (erlangC(8, 0.7) * 10) / (8 * (1 - 0.7));
    const msg = `simulated ${mean.toFixed(4)} ms ± ${halfWidth.toFixed(4)}, M/M/2 ${perReplica.toFixed(4)}, M/M/8 ${pooled.toFixed(4)}`;
    expect(Math.abs(mean / perReplica - 1), msg).toBeLessThan(0.02);
    expect(halfWidth / perReplica, msg).toBeLessThan(0.04);
    expect(mean, msg).toBeGreaterThan(3 * pooled);
  });

  it('each replica carries a quarter of the load', () => {
    const r = runPoint(
      point({ load: 0.7, seed: 3, calls: 200_000, model: exponential(2), dims: { replicas: 4 } }),
    );
    for (const rep of r.replicas!) expect(rep.utilization!).toBeCloseTo(0.7, 1);
    expect(r.row.utilization!).toBeCloseTo(0.7, 2);
  });
});

describe('balancers that look at the load beat random on p99 at load 0.7', () => {
  const p99 = (balancer: string, seed: number) =>
    runPoint(
      point({ load: 0.7, seed, calls: 300_000, model: exponential(1), dims: { replicas: 4, balancer } }),
    ).row.p99_ms!;

  for (const seed of [1, 2]) {
    it(`seed ${seed}: least-outstanding and two-choices well below random`, () => {
      const random = p99('random', seed);
      const least = p99('least-outstanding', seed);
      const two = p99('two-choices', seed);
      const msg = `p99 random ${random}, least-outstanding ${least}, two-choices ${two} ms`;
      expect(least / random, msg).toBeLessThan(0.7);
      expect(two / random, msg).toBeLessThan(0.8);
    });
  }
});

describe('correlated slowness: what hedging cannot escape', () => {
  const p999 = (config: string, correlation: number, seed: number) =>
    runPoint(
      point({
        config,
        load: 0.5,
        seed,
        calls: 200_000,
        model: DEFAULT_MODEL,
        warmupFraction: 0.1,
        dims: { replicas: 4, correlation },
      }),
    ).row.p999_ms!;

  it('with correlation 1, hedging does not cut p99.9 below no hedge; with 0 it cuts it several-fold', () => {
    const seeds = [1, 2, 3, 4];
    const ratios1 = seeds.map((s) => p999('hedge, no budget', 1, s) / p999('no hedge', 1, s));
    const m = ratios1.reduce((a, b) => a + b, 0) / seeds.length;
    const sd = Math.sqrt(ratios1.reduce((a, b) => a + (b - m) ** 2, 0) / (seeds.length - 1));
    // t quantile for 3 degrees of freedom: the 95 % interval of the ratio must reach 1 or above.
    const upper = m + (3.182 * sd) / Math.sqrt(seeds.length);
    expect(upper, `ratios ${ratios1.map((r) => r.toFixed(3)).join(', ')}`).toBeGreaterThanOrEqual(1);
    const ratio0 = p999('hedge, no budget', 0, 1) / p999('no hedge', 0, 1);
    expect(ratio0).toBeLessThan(0.25);
  });

  it('correlation 0.5 sits between: some stragglers escape, about half do not', () => {
    const none = p999('no hedge', 0.5, 1);
    const half = p999('hedge, no budget', 0.5, 1);
    const zero = p999('hedge, no budget', 0, 1);
    expect(half).toBeLessThan(none);
    expect(half).toBeGreaterThan(2 * zero);
  });
});

describe('today’s model stays today’s', () => {
  it('one replica with every default gives the very row of a point without dims', () => {
    const base = {
      load: 0.85,
      seed: 2,
      calls: 20_000,
      model: DEFAULT_MODEL,
      config: 'hedge, default budget',
    };
    const plain = runPoint(point(base));
    const dims = runPoint(
      point({
        ...base,
        dims: { replicas: 1, balancer: 'random', hedgeTo: 'other', correlation: 0, slowReplica: 1 },
      }),
    );
    // Dims given explicitly show in their columns (a matrix leaves defaults out); every figure is the same.
    const { replicas, balancer, hedge_to, correlation, slow_replica, ...figures } = dims.row;
    expect([replicas, balancer, hedge_to, correlation, slow_replica]).toEqual([1, 'random', 'other', 0, 1]);
    expect(figures).toEqual(plain.row);
    expect(dims.pool).toEqual(plain.pool);
    expect(plain.replicas).toBeUndefined();
  });

  it('a replicated point is deterministic', () => {
    const p = point({
      config: 'hedge, default budget',
      load: 0.7,
      seed: 5,
      calls: 20_000,
      model: DEFAULT_MODEL,
      dims: { replicas: 3, balancer: 'two-choices', correlation: 0.5, slowReplica: 1.5 },
    });
    expect(runPoint(p)).toEqual(runPoint(p));
  });
});
