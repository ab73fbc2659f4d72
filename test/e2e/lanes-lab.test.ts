// Lanes over SSH: `HB_LAB_LANES=2 scripts/lab.sh up` makes two lanes (a target host and a load-generator host
// each); `hedgebench run --hosts` measures one point per lane at a time. A lane that cannot be reached at the
// start is left out and its points go to the others; a lane lost mid-point gives its point back, and another
// lane measures it. Nothing is left running on any host.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, parsePointsCsv } from '../../contract/index.ts';
import { parseHostsFile } from '../../orchestrator/hosts/index.ts';
import { loadMatrixFile } from '../../orchestrator/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';
import { LAB_IDS, type Lab, labSkipReason, labUp, REPO, warnLabSkipped } from '../lab/lab-fixture.ts';
import { writeTinyMatrix } from '../orchestrator/fixture.ts';
import { ensureFreshBuild } from './fresh-build.ts';
import { processesInNamespace, settle } from './lab-processes.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('lanes end-to-end test (test/e2e/lanes-lab.test.ts)', skip);
const HOSTS = ['target', 'loadgen', 'tgt1', 'gen1', 'redis'] as const;

interface LogEvent {
  event: string;
  lane?: number;
  key?: string;
}

const events = (out: string): LogEvent[] =>
  readFileSync(join(out, 'run.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogEvent);

describe.skipIf(skip !== undefined)('hedgebench run --hosts with lanes', () => {
  let lab: Lab | undefined;
  let tmp: string | undefined;

  beforeAll(async () => {
    await ensureFreshBuild();
    tmp = mkdtempSync(join(tmpdir(), 'hb-lanes-lab-'));
    lab = await labUp(LAB_IDS.lanesE2e, 1, 2);
  }, 300_000);

  afterAll(async () => {
    await lab?.down().catch((err: Error) => console.warn(`lanes e2e: lab down failed: ${err.message}`));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }, 120_000);

  /** Two configurations × loads 0.3 and 0.5: four points. */
  const matrix = (name: string, calls: number) => writeTinyMatrix(tmp!, { name, loads: [0.3, 0.5], calls });

  const run = (hostsFile: string, matrixFile: string, out: string) =>
    execa(
      process.execPath,
      [join(REPO, 'bin', 'hedgebench.js'), 'run', '--hosts', hostsFile, '--matrix', matrixFile, '--out', out],
      { cwd: tmp, reject: false, all: true, timeout: 240_000, forceKillAfterDelay: 10_000 },
    );

  it('spreads the points over the lanes it reaches, leaves out one it cannot (lane 0 too), and writes what one lane writes', async () => {
    // Before the lab's two lanes, a lane 0 on addresses of the lab's network where no host is.
    const hosts = JSON.parse(readFileSync(lab!.hostsFile, 'utf8'));
    expect(parseHostsFile(hosts).lanes.map((l) => l.target.address)).toEqual([
      `${lab!.net}.2`,
      `${lab!.net}.22`,
    ]);
    const nowhere = (a: number) => ({
      ssh: `root@${lab!.net}.${a}`,
      workDir: '/var/tmp/hb',
      address: `${lab!.net}.${a}`,
    });
    hosts.lanes.unshift({ target: { ...nowhere(99), port: 7400 }, loadgen: nowhere(98) });
    for (const k of ['ca', 'cert', 'key']) hosts.redis.tls[k] = join(lab!.dir, hosts.redis.tls[k]);
    const hostsFile = join(tmp!, 'hosts-3.json');
    writeFileSync(hostsFile, JSON.stringify(hosts));
    const path = matrix('lanes-lab', 800);
    const out = join(tmp!, 'run');
    const r = await run(hostsFile, path, out);
    const said = `hedgebench run said:\n${String(r.all).slice(-4000)}`;
    expect(r.exitCode, said).toBe(0);
    expect(String(r.all)).toContain('3 lanes in parallel');
    expect(String(r.all)).toMatch(
      /lane 0 could not be brought up \(.*unreachable.*\); its points go to the other lanes/,
    );

    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.lanes).toBe(3);
    expect(m.points.every((p) => p.state === 'done')).toBe(true);
    // The two lanes that came up measured every point; both took one at once, so both measured.
    expect(new Set(m.points.map((p) => p.lane))).toEqual(new Set([1, 2]));
    expect(
      events(out)
        .filter((e) => e.event === 'lane-down')
        .map((e) => e.lane),
    ).toEqual([0]);
    // In parallel: some two points were being measured at the same time.
    const spans = m.points.map((p) => [Date.parse(p.startedAt!), Date.parse(p.endedAt!)] as const);
    expect(spans.some(([s, e], i) => spans.some(([s2], j) => j !== i && s2 >= s && s2 < e))).toBe(true);
    // The manifest describes every lane's hosts.
    expect((m.hosts as { lanes: unknown[] }).lanes).toHaveLength(3);

    // The simulated rows are `hedgebench simulate`'s, whatever the lanes; every point has its raw files.
    const sim = await simulateMatrix(await loadMatrixFile(path), join(tmp!, 'sim'), { threads: 0 });
    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    expect(rows.filter((row) => row.source === 'sim')).toEqual(
      parsePointsCsv(readFileSync(sim.pointsCsvPath, 'utf8')),
    );
    expect(rows.filter((row) => row.source === 'real')).toHaveLength(4);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Lanes');

    for (const h of HOSTS) {
      const left = await settle(() =>
        processesInNamespace(`${lab!.prefix}-${h}`).filter((p) => !p.cmd.startsWith('sshd')),
      );
      expect(left, h).toEqual([]);
    }
  }, 300_000);

  it("runs the clients of a point round-robin over a lane's load-generator hosts", async () => {
    // One lane: lane 0's target, and both lab lanes' load-generator hosts as its list.
    const hosts = JSON.parse(readFileSync(lab!.hostsFile, 'utf8'));
    const [first, second] = hosts.lanes;
    const { lanes: _lanes, ...rest } = hosts;
    for (const k of ['ca', 'cert', 'key']) rest.redis.tls[k] = join(lab!.dir, rest.redis.tls[k]);
    const hostsFile = join(tmp!, 'hosts-gens.json');
    writeFileSync(
      hostsFile,
      JSON.stringify({ ...rest, target: first.target, loadgen: [first.loadgen, second.loadgen] }),
    );
    const path = join(tmp!, 'clients.json');
    writeFileSync(
      path,
      JSON.stringify({
        name: 'clients-lab',
        configs: ['hedge, default budget'],
        loads: [0.3],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 600,
        calibration: false,
        clients: [2],
      }),
    );
    const out = join(tmp!, 'run-gens');
    const r = await run(hostsFile, path, out);
    expect(r.exitCode, `hedgebench run said:\n${String(r.all).slice(-4000)}`).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const slug = m.points[0]!.slug;
    expect(m.points[0]!.clients?.map((c) => c.measuredCalls)).toEqual([270, 270]);
    // Client 0 ran on the first host, client 1 on the second: each one's log is in its host's workDir.
    const logOf = (loadgen: { workDir: string }, c: number) =>
      join(loadgen.workDir, `loadgen-${slug}-c${c}.log`);
    expect(existsSync(logOf(first.loadgen, 0))).toBe(true);
    expect(existsSync(logOf(first.loadgen, 1))).toBe(false);
    expect(existsSync(logOf(second.loadgen, 1))).toBe(true);
    expect(existsSync(logOf(second.loadgen, 0))).toBe(false);
    expect(m.hosts).toMatchObject({ loadgen: [{ address: `${lab!.net}.3` }, { address: `${lab!.net}.23` }] });
  }, 300_000);

  it('gives the point of a lane lost mid-point to another lane', async () => {
    // Points of ~5 s, so lane 1 is surely mid-point when its target host goes (sshd and all).
    const path = matrix('lanes-lost', 2500);
    const out = join(tmp!, 'run-lost');
    const running = run(lab!.hostsFile, path, out);
    const deadline = Date.now() + 60_000;
    let victim: string | undefined;
    while (victim === undefined && Date.now() < deadline) {
      await sleep(200);
      try {
        victim = events(out).find((e) => e.event === 'point-start' && e.lane === 1)?.key;
      } catch {
        // run.log not written yet
      }
    }
    expect(victim, 'a point to start on lane 1').toBeDefined();
    await sleep(1_500);
    // Everything in the namespace (a short-lived child may be gone by the time kill comes: not an error).
    const ns = `${lab!.prefix}-tgt1`;
    const pids = processesInNamespace(ns).map((p) => String(p.pid));
    await execa('kill', ['-KILL', ...pids], { reject: false });

    const r = await running;
    const said = `hedgebench run said:\n${String(r.all).slice(-4000)}`;
    expect(r.exitCode, said).toBe(0);
    expect(String(r.all)).toContain(`lane 1 is lost`);
    const moved = events(out).filter((e) => e.event === 'point-moved');
    expect(moved.map((e) => [e.key, e.lane])).toEqual([[victim, 1]]);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.points.every((p) => p.state === 'done')).toBe(true);
    expect(m.points.find((p) => p.key === victim)!.lane).toBe(0);
    // Lane 1 lost its first point, so lane 0 measured them all.
    expect(m.points.filter((p) => p.lane !== 0)).toEqual([]);
  }, 300_000);
});
