// Replicas over SSH: `HB_LAB_TARGETS=2 scripts/lab.sh up` makes two target hosts, and `hedgebench run --hosts`
// with replicas [1, 2] deploys a target server on each, balances the load across them from the load
// generator's namespace, records which replica served each attempt, and leaves no agent on any host; a tied
// point's target servers cancel each other's copies across the lab's network.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAttemptsCsv } from '../../analysis/index.ts';
import type { Manifest } from '../../contract/index.ts';
import { parseHostsFile } from '../../orchestrator/hosts/index.ts';
import { LAB_IDS, type Lab, labSkipReason, labUp, REPO, warnLabSkipped } from '../lab/lab-fixture.ts';
import { ensureFreshBuild } from './fresh-build.ts';
import { processesInNamespace, settle } from './lab-processes.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('replicas end-to-end test (test/e2e/replicas-lab.test.ts)', skip);
const HOSTS = ['target', 'target1', 'loadgen', 'redis'] as const;

describe.skipIf(skip !== undefined)('hedgebench run --hosts with two target hosts', () => {
  let lab: Lab | undefined;
  let tmp: string | undefined;

  beforeAll(async () => {
    await ensureFreshBuild();
    tmp = mkdtempSync(join(tmpdir(), 'hb-replicas-lab-'));
    lab = await labUp(LAB_IDS.replicasE2e, 2);
  }, 300_000);

  afterAll(async () => {
    await lab?.down().catch((err: Error) => console.warn(`replicas e2e: lab down failed: ${err.message}`));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    // `down` took every namespace of the lab away, the second target's included.
    const left = execa('ip', ['netns', 'list']);
    expect(String((await left).stdout)).not.toMatch(new RegExp(`^${lab?.prefix}-`, 'm'));
  }, 120_000);

  it('lists both target hosts in hosts.json, runs a replica on each, and records which one served', async () => {
    const file = parseHostsFile(JSON.parse(readFileSync(lab!.hostsFile, 'utf8')));
    expect(file.targets.map((t) => t.address)).toEqual([`${lab!.net}.2`, `${lab!.net}.5`]);
    const matrixFile = join(tmp!, 'matrix.json');
    writeFileSync(
      matrixFile,
      JSON.stringify({
        name: 'replicas-lab',
        configs: ['hedge, no budget'],
        loads: [0.3],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 400,
        calibration: false,
        replicas: [1, 2],
        slowReplica: [2],
      }),
    );
    const out = join(tmp!, 'run');
    const r = await execa(
      process.execPath,
      [
        join(REPO, 'bin', 'hedgebench.js'),
        'run',
        '--hosts',
        lab!.hostsFile,
        '--matrix',
        matrixFile,
        '--out',
        out,
      ],
      { cwd: tmp, reject: false, all: true, timeout: 180_000, forceKillAfterDelay: 10_000 },
    );
    const said = `hedgebench run said:\n${String(r.all).slice(-4000)}`;
    expect(r.exitCode, said).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.points.map((p) => `${p.key} ${p.state}`)).toEqual([
      'hedge, no budget|0.30|ignore|1|s=2 done',
      'hedge, no budget|0.30|ignore|1|r=2|s=2 done',
    ]);
    // The manifest describes the list of target hosts the run used.
    expect(m.hosts).toMatchObject({
      target: [{ address: `${lab!.net}.2` }, { address: `${lab!.net}.5` }],
    });
    const two = m.points[1];
    const a = readAttemptsCsv(join(out, 'raw', `${two.slug}.attempts.csv`));
    expect([...new Set(a.replica)].sort()).toEqual([0, 1]);
    expect(readAttemptsCsv(join(out, 'raw', `${m.points[0].slug}.attempts.csv`)).replica).toBeUndefined();

    // Replica 1 ran on the second host, in its own working directory; both served the load generator only.
    const work1 = file.targets[1].workDir;
    const log1 = readFileSync(join(work1, 'target-1.log'), 'utf8');
    expect(log1).toContain(`"url":"http://${lab!.net}.5:7400"`);
    expect(log1).toMatch(
      new RegExp(`/work requests by client address: ${lab!.net.replaceAll('.', '\\.')}\\.3 \\d+`),
    );
    expect(existsSync(join(work1, 'target-server.mjs'))).toBe(true);

    // No agent is left on any host (sshd aside).
    for (const h of HOSTS) {
      const left = await settle(() =>
        processesInNamespace(`${lab!.prefix}-${h}`).filter((p) => !p.cmd.startsWith('sshd')),
      );
      expect(left, h).toEqual([]);
    }
  }, 240_000);

  it('ties copies across the two target hosts: their peer cancels cross the lab network', async () => {
    const matrixFile = join(tmp!, 'tied.json');
    writeFileSync(
      matrixFile,
      JSON.stringify({
        name: 'tied-lab',
        configs: [{ name: 'tied, gap 1 ms', tied: { gapMs: 1, budgetPercent: 0 } }],
        loads: [0.3],
        cancellation: ['propagate'],
        seeds: [1],
        calls: 300,
        calibration: false,
        replicas: [2],
        timeScale: [10],
      }),
    );
    const out = join(tmp!, 'tied-run');
    const r = await execa(
      process.execPath,
      [
        join(REPO, 'bin', 'hedgebench.js'),
        'run',
        '--hosts',
        lab!.hostsFile,
        '--matrix',
        matrixFile,
        '--out',
        out,
      ],
      { cwd: tmp, reject: false, all: true, timeout: 180_000, forceKillAfterDelay: 10_000 },
    );
    const said = `hedgebench run said:\n${String(r.all).slice(-4000)}`;
    expect(r.exitCode, said).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const [p] = m.points;
    expect(p!.state, said).toBe('done');
    const a = readAttemptsCsv(join(out, 'raw', `${p!.slug}.attempts.csv`));
    expect([...new Set(a.replica)].sort()).toEqual([0, 1]);
    // Each target host cancelled copies on the other, at its lab address: removed from the queue or dropped.
    const fates = Array.from(a.tied!.fate);
    expect(fates.filter((f) => f === 1 || f === 2).length).toBeGreaterThan(100);
    // Each one stamped where its server decided it, on the epoch clock the namespaces share.
    for (const [i, f] of fates.entries())
      if (f > 0) expect(a.tied!.decidedMs[i]).toBeGreaterThanOrEqual(a.tied!.arrivedMs[i]);
    const status = JSON.parse(readFileSync(join(out, 'raw', `${p!.slug}.status.json`), 'utf8'));
    expect(status.target_check.peerCancel.failed).toBe(0);
    for (const rep of status.target_check.replicas) {
      expect(rep.peerCancel.received).toBeGreaterThan(0);
      expect(rep.clockEpochMs).toBeGreaterThan(Date.now() - 3_600_000);
    }
  }, 240_000);
});
