// Faults mid-run with real processes: the target server or the load generator is killed during a point.
// The point is recorded as failed with its reason and its partial raw data; the run goes on (restarting
// the target) and ends non-zero.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, redisKeys } from '../../contract/index.ts';
import type { AgentRecord } from '../../orchestrator/agents/agent-registry.ts';
import { createRun } from '../../orchestrator/index.ts';
import { localRunSuite, processesMentioning, QUIET, runLog, until, writeTinyMatrix } from './fixture.ts';

const suite = localRunSuite();

function agents(out: string): AgentRecord[] {
  const path = join(out, 'agents.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AgentRecord[]) : [];
}

/** Waits until the point's generator has completed some measured calls (past the 200 of warm-up), then SIGKILLs the agent of `role`. */
async function killDuring(out: string, slug: string, role: 'target' | 'loadgen'): Promise<number> {
  const key = redisKeys('run-f', slug).status;
  await until(
    async () => Number(await suite.redis.hget(key, 'completed')) > 600,
    60_000,
    `progress of ${slug}`,
  );
  // Recorded before it starts: its pid is there once it runs.
  const a = agents(out).find((x) => x.role === role && x.pid > 0);
  if (!a) throw new Error(`no ${role} agent recorded in ${out}/agents.json`);
  process.kill(a.pid, 'SIGKILL');
  return a.pid;
}

describe('faults during a point', () => {
  it('records a killed target and a killed generator as failed points and finishes the others', async () => {
    const matrixFile = writeTinyMatrix(suite.dir, {
      configs: ['no hedge'],
      loads: [0.3, 0.5, 0.95],
      calls: 2000,
    });
    const out = join(suite.dir, 'run-f');
    const run = await createRun({ matrixFile, out, redisUrl: suite.redisUrl, stderr: QUIET, stdout: QUIET });
    const [p1, p2, p3] = run.plan;
    const running = run.execute();
    const killedTarget = await killDuring(out, p1.slug, 'target');
    await killDuring(out, p2.slug, 'loadgen');
    const outcome = await running;

    expect(outcome).toMatchObject({ exitCode: 1, done: 1, failed: 2 });
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const byKey = new Map(m.points.map((p) => [p.key, p]));
    expect(byKey.get(p1.key)).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('target server died'),
    });
    expect(byKey.get(p2.key)).toMatchObject({
      state: 'failed',
      reason: expect.stringContaining('exited before finishing'),
    });
    expect(byKey.get(p3.key)).toMatchObject({ state: 'done' });
    // The records collected before each kill are on disk.
    for (const p of [p1, p2]) {
      const lines = readFileSync(join(out, 'raw', `${p.slug}.calls.csv`), 'utf8')
        .trim()
        .split('\n');
      expect(lines.length).toBeGreaterThan(1);
    }
    // The target was restarted for the next point, and nothing is left running or left in Redis.
    expect(runLog(out).some((e) => e.event === 'note' && String(e.text).includes('restarted'))).toBe(true);
    expect(agents(out)).toEqual([]);
    expect(await processesMentioning(out)).toEqual([]);
    expect(killedTarget).toBeGreaterThan(1);
    expect(await suite.redis.keys('hb:run-f:*')).toEqual([]);

    // --retry-failed measures the two failed points again and keeps the done one as it was.
    const doneRows = readFileSync(join(out, 'points.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('no hedge,0.95,'));
    const again = await createRun({
      resume: out,
      retryFailed: true,
      redisUrl: suite.redisUrl,
      stderr: QUIET,
      stdout: QUIET,
    });
    expect(await again.execute()).toMatchObject({ exitCode: 0, done: 3, failed: 0 });
    const after = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(after.points.map((p) => [p.state, p.reason])).toEqual([
      ['done', undefined],
      ['done', undefined],
      ['done', undefined],
    ]);
    const rows = readFileSync(join(out, 'points.csv'), 'utf8').split('\n');
    for (const l of doneRows) expect(rows).toContain(l);
    for (const p of [p1, p2]) {
      expect(
        readFileSync(join(out, 'raw', `${p.slug}.calls.csv`), 'utf8')
          .trim()
          .split('\n'),
      ).toHaveLength(1801);
    }
  }, 240_000);
});
