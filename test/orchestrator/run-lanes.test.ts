// Lanes on this machine (`--lanes 2`): two points measured at a time, each lane with its own target server
// and load generator, one Redis. The results folder is the one-lane folder plus the lane of each point; the
// simulated rows are `hedgebench simulate`'s; an interrupted run resumes on its lanes.

import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, parsePointsCsv } from '../../contract/index.ts';
import { createRun, loadMatrixFile } from '../../orchestrator/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';
import { localRunSuite, processesMentioning, QUIET, runLog, until, writeTinyMatrix } from './fixture.ts';

const suite = localRunSuite('hb-lanes-');

/** Two configurations × loads 0.3 and 0.5: four points, two per lane. */
const writeMatrix = (name: string, calls: number) =>
  writeTinyMatrix(suite.dir, { name, loads: [0.3, 0.5], calls });

/** A new run of the matrix at `path` into `out` on two lanes, to its end; what it said on stderr. */
async function runOnTwoLanes(path: string, out: string) {
  const said: string[] = [];
  const run = await createRun({
    matrixFile: path,
    out,
    lanes: 2,
    redisUrl: suite.redisUrl,
    cwd: suite.dir,
    stderr: { write: (t: string) => said.push(t) },
    stdout: QUIET,
  });
  return { outcome: await run.execute(), said };
}

const manifestOf = (out: string) => JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;

describe('hedgebench run --lanes 2, everything on this machine', () => {
  it('measures two points at a time, one per lane, into the folder one lane writes', async () => {
    const path = writeMatrix('lanes', 500);
    const out = join(suite.dir, 'run');
    const { outcome, said } = await runOnTwoLanes(path, out);
    expect(outcome).toMatchObject({ exitCode: 0, done: 4, failed: 0, pending: 0 });
    const m = manifestOf(out);
    expect(m.lanes).toBe(2);
    expect(new Set(m.points.map((p) => p.lane))).toEqual(new Set([0, 1]));
    // In parallel: the first two points started together, one per lane.
    const starts = runLog(out).filter((e) => e.event === 'point-start');
    expect(starts.slice(0, 2).map((e) => e.lane)).toEqual([0, 1]);
    const spans = m.points.map((p) => [Date.parse(p.startedAt!), Date.parse(p.endedAt!)] as const);
    expect(spans.some(([s, e], i) => spans.some(([s2], j) => j !== i && s2 >= s && s2 < e))).toBe(true);
    // Lane 1 has its own processes and working directories; its log lines say which lane (the lanes start
    // their targets at the same time, in either order).
    expect(existsSync(join(out, 'work', 'lane1-target', 'lane1-target.log'))).toBe(true);
    expect(existsSync(join(out, 'work', 'lane1-loadgen'))).toBe(true);
    expect(
      runLog(out)
        .filter((e) => e.event === 'agents-started')
        .map((e) => e.lane ?? 0)
        .sort(),
    ).toEqual([0, 1]);
    const text = said.join('');
    expect(text).toContain('2 lanes in parallel');
    expect(text).toMatch(/share this machine's \d+ cores/);
    expect(text).toMatch(/\[\d\/4\] .* \(lane 1\): done/);

    // The simulated rows are `hedgebench simulate`'s; every point has its real row and raw files.
    const sim = await simulateMatrix(await loadMatrixFile(path), join(suite.dir, 'sim'), { threads: 0 });
    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    expect(rows.filter((r) => r.source === 'sim')).toEqual(
      parsePointsCsv(readFileSync(sim.pointsCsvPath, 'utf8')),
    );
    expect(rows.filter((r) => r.source === 'real')).toHaveLength(4);
    for (const p of m.points) expect(existsSync(join(out, 'raw', `${p.slug}.calls.csv`))).toBe(true);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('## Lanes');
    expect(report).toContain('this machine');
    // What the points cost the machine: in the manifest, said at the end, and per lane in the report.
    expect(m.cpu!.cores).toBe(availableParallelism());
    expect(m.cpu!.busyCores).toBeGreaterThan(0);
    expect(m.cpu!.busyCores).toBeLessThanOrEqual(m.cpu!.cores);
    expect(text).toMatch(
      /this machine kept \d+\.\d\d of its \d+ cores busy over the points, about \d+\.\d\d a lane/,
    );
    // And what its hypervisor took, for the run and for each point (0 on bare metal), said when not 0.
    for (const share of [m.cpu!.stealShare, ...m.points.map((p) => p.stealShare)]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    if (m.cpu!.stealShare! > 0)
      expect(text).toMatch(/; its hypervisor took \d+\.\d % of its CPU time \(steal\)/);
    expect(report).toMatch(/kept \d+\.\d\d of its \d+ cores busy on average over the \d+ s of points/);

    expect(await suite.redis.keys(`hb:${m.run}:*`)).toEqual([]);
    expect(await processesMentioning(out)).toEqual([]);
  });

  it('measures a point the simulation predicts to collapse last, with no other lane beside it', async () => {
    // Plan order: 3 attempts at 0.3, at 0.9 (it collapses in the simulation), then no hedge at 0.3 and 0.9.
    const path = writeTinyMatrix(suite.dir, {
      name: 'lanes-alone',
      configs: ['3 attempts, no budget', 'no hedge'],
      loads: [0.3, 0.9],
      calls: 1000,
    });
    const out = join(suite.dir, 'run-alone');
    const { outcome, said } = await runOnTwoLanes(path, out);
    expect(outcome.pending).toBe(0);
    const collapsing = '3 attempts, no budget|0.90|ignore|1';
    expect(runLog(out).find((e) => e.event === 'alone')?.keys).toEqual([collapsing]);
    expect(said.join('')).toContain(
      `1 point the simulation predicts to collapse with 500 or more attempts in flight runs after the others, with no other lane beside it: so many attempts in flight take the shared cores from any point measured at the same time: ${collapsing}`,
    );
    const starts = runLog(out).filter((e) => e.event === 'point-start');
    expect(starts.map((e) => e.key).at(-1)).toBe(collapsing);
    // Its span overlaps no other point's; the others still ran two at a time.
    const m = manifestOf(out);
    const span = (p: Manifest['points'][number]) =>
      [Date.parse(p.startedAt!), Date.parse(p.endedAt!)] as const;
    const [s0, e0] = span(m.points.find((p) => p.key === collapsing)!);
    const others = m.points.filter((p) => p.key !== collapsing).map(span);
    expect(others.filter(([s, e]) => s < e0 && e > s0)).toEqual([]);
    expect(others.some(([s, e], i) => others.some(([s2], j) => j !== i && s2 >= s && s2 < e))).toBe(true);
    expect(await processesMentioning(out)).toEqual([]);
  });

  it('resumes an interrupted run on the lanes it had', async () => {
    // Points of ~3–5 s, interrupted once both lanes are measuring.
    const path = writeMatrix('lanes-resume', 1500);
    const out = join(suite.dir, 'run-resume');
    const common = { redisUrl: suite.redisUrl, cwd: suite.dir, stderr: QUIET, stdout: QUIET };
    const first = await createRun({ ...common, matrixFile: path, out, lanes: 2 });
    const running = first.execute();
    await until(
      () =>
        existsSync(join(out, 'run.log')) && runLog(out).filter((e) => e.event === 'point-start').length >= 2,
      60_000,
      'both lanes to start a point',
    );
    first.interrupt('SIGINT');
    const stopped = await running;
    expect(stopped.exitCode).toBe(130);
    expect(stopped.pending).toBeGreaterThanOrEqual(2);
    expect(manifestOf(out).lanes).toBe(2);

    // No --lanes: the manifest's two lanes again.
    const again = await createRun({ ...common, resume: out });
    const outcome = await again.execute();
    expect(outcome).toMatchObject({ exitCode: 0, done: 4, pending: 0 });
    const m = manifestOf(out);
    expect(m.lanes).toBe(2);
    const resumed = runLog(out).slice(runLog(out).findIndex((e) => e.event === 'run-resume'));
    expect(new Set(resumed.filter((e) => e.event === 'point-start').map((e) => e.lane))).toEqual(
      new Set([0, 1]),
    );
    expect(await processesMentioning(out)).toEqual([]);
  });
});
