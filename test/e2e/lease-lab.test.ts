// The agents' lease over SSH: `hedgebench run --hosts` on the lab, SIGKILLed mid-point (at an exact protocol
// step: right after it started the point's load generator), and never resumed. Every agent on the three lab
// hosts — redis-server, the target server, the load generator — must stop by itself within lease + 5 s.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_IDS, type Lab, labSkipReason, labUp, REPO, warnLabSkipped } from '../lab/lab-fixture.ts';
import { ensureFreshBuild } from './fresh-build.ts';
import { type Proc, processesInNamespace } from './lab-processes.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('lease end-to-end test (test/e2e/lease-lab.test.ts)', skip);
const ROLES = ['target', 'loadgen', 'redis'] as const;
const LEASE = 3;

describe.skipIf(skip !== undefined)('hedgebench run --hosts killed with SIGKILL mid-point', () => {
  let lab: Lab | undefined;
  let tmp: string | undefined;

  beforeAll(async () => {
    await ensureFreshBuild();
    tmp = mkdtempSync(join(tmpdir(), 'hb-lease-lab-'));
    lab = await labUp(LAB_IDS.leaseE2e);
  }, 300_000);

  afterAll(async () => {
    await lab?.down().catch((err: Error) => console.warn(`lease e2e: lab down failed: ${err.message}`));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }, 120_000);

  /** Processes of the run on the lab hosts: everything in their namespaces but sshd (listener, sessions). */
  const agentsOnHosts = (): Record<string, Proc[]> =>
    Object.fromEntries(
      ROLES.map((r) => [
        r,
        processesInNamespace(`${lab!.prefix}-${r}`).filter((p) => !p.cmd.startsWith('sshd')),
      ]),
    );

  it('leaves no agent on any host after lease + 5 s', async () => {
    const matrixFile = join(tmp!, 'matrix.json');
    writeFileSync(
      matrixFile,
      JSON.stringify({
        name: 'lease-lab',
        configs: ['no hedge'],
        loads: [0.3],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 3000,
        calibration: false,
      }),
    );
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
        join(tmp!, 'run'),
        '--lease',
        String(LEASE),
      ],
      {
        cwd: tmp,
        reject: false,
        all: true,
        timeout: 180_000,
        env: { HEDGEBENCH_TEST_KILL_AT: 'agent-started:loadgen' },
      },
    );
    const killedAt = Date.now();
    expect(r.signal, String(r.all).slice(-2000)).toBe('SIGKILL');
    const atKill = agentsOnHosts();
    // All three agents were running when the orchestrator died (each with its lease guard).
    expect(
      atKill.redis.some((p) => p.cmd.startsWith('redis-server')),
      JSON.stringify(atKill),
    ).toBe(true);
    expect(atKill.target.some((p) => p.cmd.includes('target-server.mjs'))).toBe(true);
    expect(atKill.loadgen.some((p) => p.cmd.includes('loadgen.mjs'))).toBe(true);

    let left = atKill;
    while (Date.now() - killedAt < (LEASE + 5) * 1000) {
      left = agentsOnHosts();
      if (Object.values(left).every((ps) => ps.length === 0)) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    expect(left).toEqual({ target: [], loadgen: [], redis: [] });
  }, 240_000);
});
