// The matrix's replica dimensions: one error per bad field before anything runs, expansion order, defaults
// left out of a point's dims (today's keys), combinations that cannot differ made once, and the plan notes.
import { describe, expect, it } from 'vitest';
import { expandMatrix, MatrixInvalidError, parseMatrix, pointKey, replicaNotes } from '../../model/index.ts';

const base = {
  name: 'r',
  configs: ['no hedge', 'hedge, no budget'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
};

function issuesOf(extra: object): string[] {
  try {
    parseMatrix({ ...base, ...extra });
  } catch (err) {
    expect(err).toBeInstanceOf(MatrixInvalidError);
    return [...(err as MatrixInvalidError).issues];
  }
  return [];
}

describe('replica fields: bad input', () => {
  it('correlation outside [0, 1] names the field and the range', () => {
    const issues = issuesOf({ correlation: [0, 1.5] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^correlation\[1\]: must be in \[0, 1\]/);
  });

  it('an unknown balancer names the field and the balancers there are', () => {
    const issues = issuesOf({ balancer: ['random', 'fastest'] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^balancer\[1\]: "fastest" is not a balancer; use one of random, round-robin/);
  });

  it('replicas must be whole numbers ≥ 1; hedgeTo other or any; slowReplica ≥ 1; no duplicates', () => {
    expect(issuesOf({ replicas: [0] })[0]).toMatch(/^replicas\[0\]: must be ≥ 1/);
    expect(issuesOf({ replicas: [2.5] })[0]).toMatch(/^replicas\[0\]: must be a whole number/);
    expect(issuesOf({ hedgeTo: ['same'] })[0]).toMatch(/^hedgeTo\[0\]: "same" is not a hedge target/);
    expect(issuesOf({ slowReplica: [0.5] })[0]).toMatch(/^slowReplica\[0\]: must be ≥ 1/);
    expect(issuesOf({ replicas: [4, 4] })).toEqual(['replicas: 4 appears twice; list each value once']);
    expect(issuesOf({ correlation: [] })[0]).toMatch(/^correlation: must list at least one value/);
  });
});

describe('replica fields: expansion', () => {
  it('without them, the points and keys are today’s', () => {
    const points = expandMatrix(parseMatrix(base));
    expect(points.map(pointKey)).toEqual(['no hedge|0.50|ignore|1', 'hedge, no budget|0.50|ignore|1']);
    expect(points.every((p) => p.dims === undefined)).toBe(true);
  });

  it('defaults are left out, and settings that change nothing are made once', () => {
    const m = parseMatrix({
      ...base,
      replicas: [1, 4],
      balancer: ['random', 'least-outstanding'],
      correlation: [0, 1],
    });
    expect(expandMatrix(m).map(pointKey)).toEqual([
      // no hedge: correlation cannot matter; one replica: the balancer cannot matter.
      'no hedge|0.50|ignore|1',
      'no hedge|0.50|ignore|1|r=4',
      'no hedge|0.50|ignore|1|r=4|b=least-outstanding',
      'hedge, no budget|0.50|ignore|1',
      'hedge, no budget|0.50|ignore|1|c=1',
      'hedge, no budget|0.50|ignore|1|r=4',
      'hedge, no budget|0.50|ignore|1|r=4|c=1',
      'hedge, no budget|0.50|ignore|1|r=4|b=least-outstanding',
      'hedge, no budget|0.50|ignore|1|r=4|b=least-outstanding|c=1',
    ]);
  });

  it('hedgeTo any and a slow replica become dims; a hedge delay sweep composes with them', () => {
    const m = parseMatrix({
      ...base,
      configs: ['hedge, no budget'],
      delaysMs: [10],
      replicas: [3],
      hedgeTo: ['any'],
      slowReplica: [2],
    });
    const [p] = expandMatrix(m);
    expect(p.dims).toEqual({ delayMs: 10, replicas: 3, hedgeTo: 'any', slowReplica: 2 });
    expect(pointKey(p)).toBe('hedge, no budget|0.50|ignore|1|d=10|r=3|h=any|s=2');
  });
});

describe('plan notes', () => {
  it('hedgeTo with one replica is allowed and said to have no effect', () => {
    const m = parseMatrix({ ...base, replicas: [1], hedgeTo: ['other'] });
    expect(replicaNotes(m).join('\n')).toMatch(/hedgeTo has no effect on the points with 1 replica/);
    expect(replicaNotes(parseMatrix(base))).toEqual([]);
  });
});
