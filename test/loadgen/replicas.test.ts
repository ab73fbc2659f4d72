// The load generator across replicas, against three real HTTP servers on 127.0.0.1: each attempt reaches the
// replica the balancer picked with the simulator's draws for the seed, a hedge goes to another replica, the
// rate is against all three, and a bad balancer is refused naming the option.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../contract/index.ts';
import { LoadgenConfigError } from '../../loadgen/errors.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import { balancerDraw, type ModelParams, referenceConfig } from '../../model/index.ts';
import { startWorkServer, type WorkServer } from './work-server.ts';

// λ = load · workers · R / E[S] = 0.5 · 2 · 3 / 10 ms = 300 calls/s.
const MODEL: Partial<ModelParams> = { workers: 2, service: { kind: 'constant', ms: 10 } };
const SEED = 4;

let servers: WorkServer[] = [];
beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map(() => startWorkServer()));
  // Every fourth call's first attempt is slow (40 ms): its hedge, 20 ms later, wins.
  for (const s of servers) {
    s.handler = (a, res) => {
      setTimeout(() => res.end('{}'), a.attempt === 1 && a.call % 4 === 0 ? 40 : 1);
    };
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('load generator across replicas', () => {
  it('sends each attempt to the balancer’s replica; hedges to another one', async () => {
    const records: CallRecord[] = [];
    const g = createLoadGenerator({
      target: servers[0].url,
      replicaTargets: [servers[1].url, servers[2].url],
      balancer: 'random',
      hedgeTo: 'other',
      config: referenceConfig('hedge, no budget')!,
      load: 0.5,
      calls: 300,
      seed: SEED,
      warmupFraction: 0,
      model: MODEL,
      onCall: (r) => records.push(r),
    });
    const result = await g.run();
    expect(result.state).toBe('done');
    expect(records, JSON.stringify({ ...result, timeline: undefined })).toHaveLength(300);
    const draw = balancerDraw(SEED);
    const firstAt = new Map<number, number>();
    servers.forEach((s, r) => {
      for (const a of s.arrivals) if (a.attempt === 1) firstAt.set(a.call, r);
    });
    // A first attempt cancelled before the server read it (its hedge won first, on a stalled machine) never
    // arrives; nearly all do.
    expect(firstAt.size).toBeGreaterThan(240);
    for (const [call, r] of firstAt) expect(r, `call ${call}`).toBe(Math.floor(draw(call, 1, 0) * 3));
    // Every replica got a share of the first attempts.
    for (const s of servers) expect(s.arrivals.filter((a) => a.attempt === 1).length).toBeGreaterThan(60);
    let hedges = 0;
    servers.forEach((s, r) => {
      for (const a of s.arrivals) {
        if (a.attempt !== 2) continue;
        hedges++;
        expect(r, `hedge of call ${a.call}`).not.toBe(firstAt.get(a.call));
      }
    });
    expect(hedges).toBeGreaterThanOrEqual(70);
    // The schedule is for three replicas: 300 calls at 300/s take about a second, not three.
    const last = records.reduce((m, r) => Math.max(m, r.intendedMs), 0);
    expect(last).toBeGreaterThan(500);
    expect(last).toBeLessThan(2000);
  });

  it('refuses an unknown balancer, naming the option', () => {
    expect(() =>
      createLoadGenerator({
        target: servers[0].url,
        replicaTargets: [servers[1].url],
        balancer: 'nearest' as never,
        config: referenceConfig('no hedge')!,
        load: 0.5,
        calls: 10,
        seed: 1,
      }),
    ).toThrow(LoadgenConfigError);
    expect(() =>
      createLoadGenerator({
        target: servers[0].url,
        replicaTargets: [servers[1].url],
        balancer: 'nearest' as never,
        config: referenceConfig('no hedge')!,
        load: 0.5,
        calls: 10,
        seed: 1,
      }),
    ).toThrow(/--balancer/);
  });
});
