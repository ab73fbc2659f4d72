// `hedgebench run --plan`: the fewest calls that bound a percentile (from the interval code itself), the
// estimate of a plan, the warning and its fix, and the command printing it without starting or writing.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percentileRanks } from '../../analysis/index.ts';
import type { PointRow } from '../../contract/index.ts';
import { parseMatrix } from '../../model/index.ts';
import type { HostsFile } from '../../orchestrator/hosts/index.ts';
import { autoProbeLanes, loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import { autoLanes, laneCountOf } from '../../orchestrator/lanes/lanes.ts';
import { dilationWords } from '../../orchestrator/plan/plan.ts';
import {
  estimatePlan,
  formatPlan,
  laneOrder,
  minCallsToBound,
  POINT_OVERHEAD_MS,
  POINT_TAIL_MS,
  pointWallMs,
  RUN_OVERHEAD_MS,
} from '../../orchestrator/plan/plan-estimate.ts';
import {
  ALONE_BACKLOG,
  collapseBacklog,
  collapseDrainMs,
  collapseDrains,
  collapsingKeys,
} from '../../orchestrator/plan/plan-simulation.ts';
import { ROOT, requireBuild, rmTemp, runCli, tempDir } from './fixture.ts';

const QUICK = join(ROOT, 'experiments', 'quick.json');
const CONFIRM = join(ROOT, 'experiments', 'confirm.json');
let dir: string;
beforeAll(() => {
  dir = tempDir('hb-plan-');
});
afterAll(() => rmTemp(dir));

describe('minCallsToBound', () => {
  it('is the first sample size whose interval is closed above: 368 for p99, 3 688 for p99.9', () => {
    expect(minCallsToBound(99)).toBe(368);
    expect(minCallsToBound(99.9)).toBe(3688);
    expect(percentileRanks(3687, 99.9).highOpen).toBe(true);
    expect(percentileRanks(3688, 99.9).highOpen).toBe(false);
  });
});

describe('estimatePlan', () => {
  it('paired by call, the verdict needs no calls to bound a percentile on its own: no warning', async () => {
    expect(estimatePlan(planPoints(await loadMatrixFile(QUICK, { calls: 1000 }))).warnings).toEqual([]);
  });

  it('unpaired (a foreign service), warns at 4 000 calls (3 600 measured) and names a fix that itself passes', async () => {
    const unpaired = async (calls: number) =>
      estimatePlan(planPoints(await loadMatrixFile(QUICK, { calls })), 1, new Set(), new Map(), true);
    const e = await unpaired(4000);
    // The calibration point too: unpaired, its p99.9 is judged on its own interval like any point's.
    expect(e.warnings).toHaveLength(1);
    expect(e.warnings[0]).toMatch(
      /9 of 9 points .* p99\.9: 900 measured .* at least 3688 .* at least (\d+)$/,
    );
    expect((await unpaired(8000)).warnings.join('\n')).not.toMatch(/8 of 9|9 of 9/);
  });

  it('adds up schedules and disk per point', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    const e = estimatePlan(plan);
    const schedules = plan.reduce((t, p) => t + p.expectedMs, 0);
    expect(e.wallMs).toBeGreaterThan(schedules);
    expect(e.diskBytes).toBe(plan.reduce((b, p) => b + p.point.calls, 0) * 150);
  });

  it('spreads the points over lanes, each taking the next point as it frees up', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    const one = estimatePlan(plan);
    const two = estimatePlan(plan, 2);
    expect(one.lanes).toBeUndefined();
    expect(two.lanes).toBe(2);
    // Never less than the longest point, nor than half the one-lane work; never more than one lane's.
    const longest = Math.max(...plan.map((p) => p.expectedMs));
    expect(two.wallMs).toBeGreaterThan(longest);
    expect(two.wallMs).toBeGreaterThanOrEqual((one.wallMs - RUN_OVERHEAD_MS) / 2 + RUN_OVERHEAD_MS);
    expect(two.wallMs).toBeLessThan(one.wallMs);
    expect(estimatePlan(plan, plan.length).wallMs).toBe(RUN_OVERHEAD_MS + Math.max(...plan.map(pointWallMs)));
    expect(formatPlan('quick', two)).toMatch(/estimated wall time: about .* on 2 lanes/);
  });

  it('gives lanes the calibration point first, then the longest; one lane keeps plan order', async () => {
    const plan = planPoints(await loadMatrixFile(CONFIRM, { calls: 2000 }));
    const order = laneOrder(plan, 3);
    expect(order[0].calibration).toBe(true);
    const rest = order.slice(1).map(pointWallMs);
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
    expect(new Set(order)).toEqual(new Set(plan));
    expect(laneOrder(plan, 1)).toEqual(plan);
    // A point's wall time: its schedule, the per-point overhead, and its last calls' tail, k times longer.
    const atTen = planPoints(await loadMatrixFile(QUICK));
    expect(pointWallMs(atTen[0])).toBe(atTen[0].expectedMs + POINT_OVERHEAD_MS + 10 * POINT_TAIL_MS);
  });

  it('on 3 lanes of the quick preset, finishes the shared points no later than plan order would', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    // Plan order on 3 lanes, each lane taking the next point as it frees up.
    const free = [0, 0, 0];
    for (const pp of plan) free[free.indexOf(Math.min(...free))] += pointWallMs(pp);
    expect(estimatePlan(plan, 3).wallMs).toBeLessThanOrEqual(RUN_OVERHEAD_MS + Math.max(...free));
  });

  it('measures the points keyed alone after the others, one at a time', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    const alone = new Set([plan[1].key, plan[2].key]);
    const e = estimatePlan(plan, 3, alone);
    const others = estimatePlan(
      plan.filter((p) => !alone.has(p.key)),
      3,
    );
    const oneByOne = plan.filter((p) => alone.has(p.key)).reduce((t, p) => t + pointWallMs(p), 0);
    expect(e.wallMs).toBe(others.wallMs + oneByOne);
    expect(e.points.filter((p) => p.alone).map((p) => p.key)).toEqual([...alone]);
    // The other points' JSON is as it was: no `alone` field.
    expect(e.points.filter((p) => 'alone' in p)).toHaveLength(2);
    const text = formatPlan('quick', e);
    expect(text).toContain(`${plan[1].key} (alone)`);
    expect(text).toMatch(
      /^alone: 2 points the simulation predicts to collapse with 500 or more attempts in flight run after the others/m,
    );
    expect(formatPlan('quick', estimatePlan(plan, 3))).not.toContain('alone');
  });
});

describe('hedgebench run --plan', () => {
  it('prints the plan as JSON on stdout and creates nothing', async () => {
    requireBuild();
    const r = await runCli(['run', '--plan', '--json', '--calls', '4000', '--matrix', QUICK], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const j = JSON.parse(String(r.stdout));
    expect(j.matrix).toBe('quick');
    expect(j.points).toHaveLength(9);
    // Paired by call, 3 600 measured calls need no bound of their own on p99.9.
    expect(j.warnings).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'results'))).toBe(false);
  });

  it('on lanes, simulates to mark the points predicted to collapse, which run alone', async () => {
    requireBuild();
    const plan = async (lanes: string) => {
      const args = ['run', '--plan', '--json', '--calls', '1000', '--lanes', lanes, '--matrix', CONFIRM];
      const r = await runCli(args, { cwd: dir });
      expect(r.exitCode).toBe(0);
      return JSON.parse(String(r.stdout)) as { points: { key: string; alone?: true; drainMs?: number }[] };
    };
    const two = (await plan('2')).points;
    const alone = two.filter((p) => p.alone).map((p) => p.key);
    // Without hedging a budget-free load, nothing collapses: only the no-budget configurations, without
    // cancellation, at the heaviest load.
    expect(alone.length).toBeGreaterThan(0);
    for (const key of alone) expect(key).toMatch(/^(hedge|3 attempts), no budget\|0\.95\|ignore\|/);
    // Every point kept alone collapses, so it lasts past its schedule.
    for (const p of two.filter((x) => x.alone)) expect(p.drainMs).toBeGreaterThan(0);
    // One lane measures everything in plan order: nothing to keep alone, the same drains.
    const one = (await plan('1')).points;
    expect(one.filter((p) => 'alone' in p)).toEqual([]);
    expect(one.map((p) => p.drainMs)).toEqual(two.map((p) => p.drainMs));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the plan of a dilated run', () => {
  it('says the run is dilated and lasts k times longer', async () => {
    const undilated = planPoints(await loadMatrixFile(QUICK, { timeScale: 1 }));
    const dilated = planPoints(await loadMatrixFile(QUICK, { timeScale: 5 }));
    const ratio = (plan: typeof dilated) => plan.reduce((t, p) => t + p.expectedMs, 0);
    expect(ratio(dilated) / ratio(undilated)).toBeCloseTo(5, 6);
    const e = estimatePlan(dilated);
    expect(e.timeScales).toEqual([5]);
    expect(formatPlan('quick', e)).toMatch(/dilated: time scale 5: every duration × k/);
    expect(estimatePlan(undilated).timeScales).toBeUndefined();
    expect(dilationWords(dilated)).toMatch(
      /^time scale 5 \(every duration × k.*of schedules on the wall clock$/,
    );
    expect(dilationWords(undilated)).toBe('');
  });

  it('with "auto", gives the estimate at every k the run may choose', async () => {
    requireBuild();
    const r = await runCli(['run', '--plan', '--time-scale', 'auto', '--matrix', QUICK], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toMatch(/time scale auto: .* at each k: 1: .*, 2: .*, 5: .*, 10: .*, 20: /);
  });
});

describe('--lanes auto', () => {
  it('keeps an undilated run on one lane and gives a dilated one the lanes half the cores allow', () => {
    expect(autoLanes({ cores: 2, timeScale: 1, points: 9 }).lanes).toBe(1);
    // One replica: 0.23 + 0.65 ÷ k cores a lane, under half of 2 cores.
    expect(autoLanes({ cores: 2, timeScale: 2, points: 9 }).lanes).toBe(1);
    expect(autoLanes({ cores: 2, timeScale: 5, points: 9 }).lanes).toBe(2);
    expect(autoLanes({ cores: 2, timeScale: 10, points: 9 })).toEqual({
      lanes: 3,
      reason: 'lanes auto: 3 (time scale 10: a lane needs about 0.30 cores; 50 % of 2 cores)',
    });
    // Four load generators a lane (clients: 4) cost as four target servers do: one lane at k = 10.
    expect(autoLanes({ cores: 2, timeScale: 10, points: 9, clients: 4 }).reason).toBe(
      'lanes auto: 1 (time scale 10: with 4 load generators a lane needs about 1.18 cores; 50 % of 2 cores)',
    );
    // Four target servers a lane: about 1.05 cores even at k = 20, so one lane on two cores.
    expect(autoLanes({ cores: 2, timeScale: 20, points: 9, replicas: 4 })).toEqual({
      lanes: 1,
      reason:
        'lanes auto: 1 (time scale 20: with 4 target servers a lane needs about 1.05 cores; 50 % of 2 cores)',
    });
    expect(autoLanes({ cores: 2, timeScale: 10, points: 2 }).lanes).toBe(2);
    expect(autoLanes({ cores: 8, timeScale: 1, points: 9 }).lanes).toBe(3);
  });

  it('is the default on this machine only when every point is dilated', () => {
    const base = { hostsFile: undefined, resumed: undefined, foreign: false, cores: 2, points: 9 };
    expect(laneCountOf({ ...base, option: undefined, timeScale: 1 })).toBe(1);
    expect(laneCountOf({ ...base, option: undefined, timeScale: 10 })).toBe(3);
    expect(laneCountOf({ ...base, option: 2, timeScale: 10 })).toBe(2);
    // A resumed run keeps its lanes; a foreign service gets one.
    expect(laneCountOf({ ...base, option: undefined, resumed: 1, timeScale: 10 })).toBe(1);
    expect(laneCountOf({ ...base, option: undefined, foreign: true, timeScale: 10 })).toBe(1);
  });

  it("keeps a hosts file's lanes unless auto finds them sharing one machine, and says why", () => {
    const lane = { target: {}, loadgen: {} };
    const hostsFile = { lanes: [lane, lane, lane] } as unknown as HostsFile;
    const base = { hostsFile, resumed: undefined, foreign: false, points: 9, timeScale: 5 };
    const said: string[] = [];
    const say = (t: string) => said.push(t);
    expect(laneCountOf({ ...base, option: undefined })).toBe(3);
    expect(() => laneCountOf({ ...base, option: 2 })).toThrow(
      /--lanes 2 .* drop --lanes, or use --lanes auto/,
    );
    // Machines of their own (or not known to share one): every lane.
    expect(laneCountOf({ ...base, option: 'auto', shared: null, say })).toBe(3);
    expect(said.pop()).toMatch(/all 3 lanes of the hosts file/);
    // One 2-core kernel under all six hosts at k = 10: 0.30 cores a lane, half of 2 cores fits 3 of the 3.
    const shared = { bootId: '0123456789abcdef', cores: 2, hosts: 6 };
    expect(laneCountOf({ ...base, timeScale: 10, option: 'auto', shared, say })).toBe(3);
    // At k = 5 (0.36 cores a lane) only 2 fit, and it says which machine they share.
    expect(laneCountOf({ ...base, option: 'auto', shared, say })).toBe(2);
    expect(said.pop()).toMatch(
      /lanes auto: 2 of the hosts file's 3 lanes: its 6 target and load-generator hosts share one machine \(one kernel, boot id 01234567…, 2 cores\)/,
    );
  });
});

describe('"auto"\'s probe', () => {
  it('measures on as many lanes at once as the run may get at any k of the ladder', async () => {
    const quick = await loadMatrixFile(QUICK);
    // At k = 20 a lane needs 0.26 cores: 3 fit half of 2 cores (the run at k = 5 then gets 2, fewer).
    expect(await autoProbeLanes(quick, {}, undefined, 2)).toBe(3);
    expect(await autoProbeLanes(quick, { lanes: 'auto' }, undefined, 1)).toBe(1);
    expect(await autoProbeLanes(quick, { lanes: 2 }, undefined, 2)).toBe(2);
    const one = parseMatrix(
      {
        name: 'one',
        configs: ['no hedge'],
        loads: [0.5],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 100,
        calibration: false,
      },
      'test',
    );
    expect(await autoProbeLanes(one, {}, undefined, 2)).toBe(1);
  });
});

describe('collapsingKeys', () => {
  it('keeps alone only the collapses predicted to end with a backlog of ALONE_BACKLOG attempts or more', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    const [light, heavy, steady] = plan.slice(1, 4);
    const row = (collapsed: boolean, requests_per_call: number) =>
      ({ collapsed, requests_per_call }) as unknown as PointRow;
    // 4 200 calls a point: 0.05 attempts a call above capacity is a backlog of 210, 0.5 of 2 100.
    const sim = new Map<string, PointRow>([
      [light.key, row(true, 1 / light.point.load + 0.05)],
      [heavy.key, row(true, 1 / heavy.point.load + 0.5)],
      [steady.key, row(false, 3)],
    ]);
    expect(collapseBacklog(light, sim.get(light.key))).toBeCloseTo(0.05 * light.point.calls, 6);
    expect(collapseBacklog(light, sim.get(light.key))).toBeLessThan(ALONE_BACKLOG);
    expect(collapseBacklog(heavy, sim.get(heavy.key))).toBeGreaterThanOrEqual(ALONE_BACKLOG);
    expect(collapseBacklog(steady, sim.get(steady.key))).toBe(0);
    expect(collapsingKeys(plan, sim)).toEqual(new Set([heavy.key]));
  });

  it('a collapse lasts past its schedule while its backlog drains at the capacity λ ÷ load', async () => {
    const plan = planPoints(await loadMatrixFile(QUICK));
    const [, heavy, steady] = plan.slice(1, 4);
    const row = (collapsed: boolean, requests_per_call: number) =>
      ({ collapsed, requests_per_call }) as unknown as PointRow;
    // Two attempts a call at 0.95: 1.9 × capacity offered, so the backlog takes 0.9 schedules to serve.
    const sim = new Map<string, PointRow>([
      [heavy.key, row(true, 2)],
      [steady.key, row(false, 3)],
    ]);
    expect(heavy.point.load).toBe(0.95);
    expect(collapseDrainMs(heavy, sim.get(heavy.key))).toBeCloseTo(0.9 * heavy.expectedMs, 6);
    expect(collapseDrains(plan, sim)).toEqual(
      new Map([[heavy.key, collapseDrainMs(heavy, sim.get(heavy.key))]]),
    );
    // The estimate adds it to the point's lane, and lists it beside its schedule.
    const without = estimatePlan(plan);
    const e = estimatePlan(plan, 1, new Set(), collapseDrains(plan, sim));
    expect(e.wallMs - without.wallMs).toBeCloseTo(0.9 * heavy.expectedMs, 6);
    expect(formatPlan('quick', e)).toMatch(/ \+ [\dm. ]+s to drain its collapse\n/);
    expect(formatPlan('quick', e)).toMatch(
      /last calls, the drains of the points predicted to collapse, and /,
    );
  });
});
