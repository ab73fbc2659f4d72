// The agents' lease, with real processes: an agent under the lease guard survives a missed renewal, stops by
// itself once the lease lapses or is withdrawn, and after `kill -9` of a real orchestrator mid-point no
// agent of that run is left after lease + 5 s. That point's load generator is started held
// (HEDGEBENCH_TEST_HOLD_AT, orchestrator/agents/fault-point.ts): it is still running when the lease lapses
// whatever the machine's speed, so its guard, not the end of its point, is what stops it.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentLease, checkLeaseSeconds } from '../../orchestrator/agents/lease.ts';
import { createLocalHost, type Host } from '../../orchestrator/hosts/index.ts';
import {
  CLI,
  killProcessesMentioning,
  processesMentioning,
  requireBuild,
  rmTemp,
  runLog,
  tempDir,
  until,
  writeTinyMatrix,
} from './fixture.ts';

let dir: string;
let host: Host;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-lease-');
  host = createLocalHost({ name: 'agent', workDir: join(dir, 'work') });
});

afterAll(async () => {
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

describe('the lease guard', () => {
  it('keeps an agent through a missed renewal and stops it once the lease lapses', async () => {
    const lease = new AgentLease(3);
    const file = join(host.workDir, lease.fileName);
    mkdirSync(host.workDir, { recursive: true });
    writeFileSync(file, '');
    const { pid } = await host.start(lease.guard(host, ['sleep', '300']), { name: 'sleeper' });
    // Renewed every second, one renewal missed (a 2 s gap < 3 s): still running throughout.
    for (const skip of [false, false, true, false, false, false]) {
      await sleep(1_000);
      if (!skip) utimesSync(file, new Date(), new Date());
      expect(await host.isAlive(pid)).toBe(true);
    }
    // Same pid and title as the agent itself: the guard execs it in place.
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toBe('sleep');
    // No more renewals: gone within the lease plus the guard's 1 s checks (whole-second mtimes).
    const t0 = Date.now();
    await until(async () => !(await host.isAlive(pid)), 8_000, 'the agent to stop by itself');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_000);
    expect(await host.readFile('sleeper.log')).toMatch(/not renewed for 3 s: stopping pid \d+ \(SIGTERM\)/);
    // Its watcher ends with it.
    await until(async () => (await processesMentioning(file)).length === 0, 5_000, 'the watcher to end');
  }, 30_000);

  it('renews on every host, survives a failed renewal, and stops agents when withdrawn', async () => {
    const lease = new AgentLease(3);
    const failures: string[] = [];
    await lease.begin([host], (h, err) => failures.push(`${h.name}: ${err.message}`));
    const file = join(host.workDir, lease.fileName);
    try {
      const { pid } = await host.start(lease.guard(host, ['sleep', '301']), { name: 'sleeper2' });
      // Renewals that cannot write (a directory where the renewal's temporary file goes) are reported,
      // not fatal: the agent runs on while the lease file ages less than the lease.
      const tmp = `${file}.tmp-${process.pid}`;
      mkdirSync(tmp);
      await until(() => failures.length > 0, 5_000, 'a failed renewal');
      expect(failures[0]).toMatch(/^agent: /);
      rmSync(tmp, { recursive: true });
      const failed = failures.length;
      await sleep(2_000);
      expect(failures.length).toBe(failed);
      expect(lease.failedRenewals).toBeGreaterThan(0);
      await sleep(2_000);
      expect(await host.isAlive(pid)).toBe(true);
      // Withdrawn (the normal end of a run): the file goes, the agent stops within a few seconds.
      await lease.end();
      expect(existsSync(file)).toBe(false);
      await until(async () => !(await host.isAlive(pid)), 6_000, 'the agent to stop after end()');
    } finally {
      await lease.end();
    }
  }, 30_000);

  it('refuses a lease the guard cannot keep', () => {
    expect(() => checkLeaseSeconds(2)).toThrow(/HB_RUN_OPTION|whole seconds from 3 to 3600/);
    expect(() => checkLeaseSeconds(1.5)).toThrow(/whole seconds/);
    expect(checkLeaseSeconds(15)).toBe(15);
  });
});

describe('hedgebench run killed with SIGKILL mid-point', () => {
  it('leaves no agent of the run after lease + 5 s', async () => {
    const matrixFile = writeTinyMatrix(dir, { configs: ['no hedge'], loads: [0.3] });
    const out = join(dir, 'run-lease');
    // Dies by its own SIGKILL right after starting the point's load generator (target prepared, load on).
    const first = await execa(
      process.execPath,
      [CLI, 'run', '--matrix', matrixFile, '--out', out, '--lease', '3'],
      {
        reject: false,
        cwd: dir,
        timeout: 120_000,
        env: {
          HEDGEBENCH_TEST_KILL_AT: 'agent-started:loadgen',
          HEDGEBENCH_TEST_HOLD_AT: 'agent-start:loadgen',
        },
      },
    );
    const killedAt = Date.now();
    expect(first.signal).toBe('SIGKILL');
    expect(runLog(out).some((e) => e.event === 'point-start')).toBe(true);
    // Redis, the target and the load generator (each with its guard) were running at the kill.
    const left = await processesMentioning(out);
    expect(left.length).toBeGreaterThanOrEqual(3);
    await until(
      async () => (await processesMentioning(out)).length === 0,
      3_000 + 5_000 - (Date.now() - killedAt),
      'every agent of the killed run to stop by itself',
    );
    // Each stopped through its clean path (SIGTERM from its guard), saying why.
    const loadgenLog = readdirSync(join(out, 'work'), { recursive: true, encoding: 'utf8' }).find((f) =>
      /loadgen[^/]*\.log$/.test(f),
    );
    expect(loadgenLog, 'the load generator’s log').toBeDefined();
    for (const log of ['target/target.log', 'redis/redis.log', loadgenLog!]) {
      expect(readFileSync(join(out, 'work', log), 'utf8'), log).toMatch(/not renewed for 3 s/);
    }
  }, 150_000);
});
