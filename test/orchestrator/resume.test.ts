// Resume after the orchestrator is SIGKILLed mid-run: agents the killed run left behind are found and
// stopped, every point ends up measured exactly once, none is lost. Real CLI processes throughout. The
// kill lands at an exact protocol step (HEDGEBENCH_TEST_KILL_AT, orchestrator/agents/fault-point.ts): right after
// the second point's load generator started, before its pid reached agents.json — the worst instant. That
// generator is started held (HEDGEBENCH_TEST_HOLD_AT): it waits until stopped, so the resume always finds
// it, however fast a tiny point would have run or lapsed on its own. Then `--retry-invalid`: a finished run
// measures again only the points whose self-check failed.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPointsCsv, type Manifest, parsePointsCsv, rowKey } from '../../contract/index.ts';
import type { AgentRecord } from '../../orchestrator/agents/agent-registry.ts';
import {
  CLI,
  killProcessesMentioning,
  processesMentioning,
  requireBuild,
  rmTemp,
  runCli,
  runLog,
  tempDir,
  writeTinyMatrix,
} from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir();
});

afterAll(async () => {
  // Never leave an agent behind, even when an assertion failed half-way.
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

/** True when a redis-server listens on the port named in run.log's first agents-started event. */
async function redisOfRunAlive(out: string): Promise<boolean> {
  const started = runLog(out).find((e) => e.event === 'agents-started');
  const port = String(started?.redis ?? '')
    .split(':')
    .at(-1);
  const ps = await execa('ps', ['-eo', 'stat=,args='], { reject: false });
  return String(ps.stdout)
    .split('\n')
    .some((l) => !l.trim().startsWith('Z') && l.includes('redis-server') && l.includes(`:${port}`));
}

describe('hedgebench run --resume after SIGKILL', () => {
  it('stops the leftover agents and measures every point exactly once', async () => {
    const matrixFile = writeTinyMatrix(dir, { loads: [0.3, 0.5] });
    const out = join(dir, 'run-k');
    const first = await execa(
      process.execPath,
      [CLI, 'run', '--matrix', matrixFile, '--out', out, '--lease', '120'],
      {
        reject: false,
        cwd: dir,
        timeout: 120_000,
        env: {
          HEDGEBENCH_TEST_KILL_AT: 'agent-started:loadgen@2',
          HEDGEBENCH_TEST_HOLD_AT: 'agent-start:loadgen@2',
        },
      },
    );
    expect(first.signal).toBe('SIGKILL');
    const before = runLog(out);
    const doneBefore = before.filter((e) => e.event === 'point-done').map((e) => e.key);
    expect(doneBefore).toHaveLength(1);
    expect(before.filter((e) => e.event === 'point-start')).toHaveLength(2);
    // The generator started in the instant before the kill is recorded, its pid not yet: found by its token.
    const agents = JSON.parse(readFileSync(join(out, 'agents.json'), 'utf8')) as AgentRecord[];
    const lg = agents.find((a) => a.role === 'loadgen');
    expect(lg?.pid).toBe(0);
    expect(lg?.token).toMatch(/^[0-9a-f]{16}$/);
    // The killed run leaves its agents until their lease lapses (120 s here: the resume comes first), the
    // held generator among them: it has not even written a status.
    expect((await processesMentioning(`hb-lease-${lg?.token}`)).length).toBeGreaterThanOrEqual(3);
    expect(await redisOfRunAlive(out)).toBe(true);

    const second = await runCli(['run', '--resume', out], { cwd: dir });
    expect(second.stderr).not.toMatch(/\n\s+at /);
    expect(second.exitCode).toBe(0);

    const log = runLog(out);
    const resumeAt = log.findIndex((e) => e.event === 'run-resume');
    expect(resumeAt).toBeGreaterThan(0);
    expect(log.filter((e) => e.event === 'agent-reaped').map((e) => e.role)).toEqual(
      expect.arrayContaining(['redis', 'target', 'loadgen']),
    );
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points.every((p) => p.state === 'done')).toBe(true);
    for (const p of manifest.points) {
      // Exactly one completed measurement per point, across both runs …
      expect(log.filter((e) => e.event === 'point-done' && e.key === p.key)).toHaveLength(1);
    }
    // … and a point done before the kill is never started again.
    for (const key of doneBefore) {
      expect(log.slice(resumeAt).some((e) => e.event === 'point-start' && e.key === key)).toBe(false);
    }
    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    expect(rows).toHaveLength(2 * manifest.points.length);
    expect(new Set(rows.map((r) => `${r.config}|${r.load}|${r.cancellation}|${r.source}`)).size).toBe(
      rows.length,
    );

    // Nothing of either run is still running.
    expect(await processesMentioning(out)).toEqual([]);
    expect(await redisOfRunAlive(out)).toBe(false);
  }, 240_000);

  it('--retry-invalid measures again the done points whose self-check failed, but not a collapse on both sides', async () => {
    const matrixFile = writeTinyMatrix(dir, { name: 'retry', configs: ['no hedge'], loads: [0.3, 0.5] });
    const out = join(dir, 'run-r');
    expect((await runCli(['run', '--matrix', matrixFile, '--out', out], { cwd: dir })).exitCode).toBe(0);
    // Whatever this machine made of them, both points read invalid, as after a stall — the first one
    // collapsed on both sides, which its self-check cannot change (its verdict is both-collapsed).
    const pointsPath = join(out, 'points.csv');
    const [first, second] = (JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest).points;
    const rows = parsePointsCsv(readFileSync(pointsPath, 'utf8')).map((r) => ({
      ...r,
      ...(r.source === 'real' ? { valid: false } : {}),
      ...(rowKey(r) === first.key ? { collapsed: true } : {}),
    }));
    writeFileSync(pointsPath, formatPointsCsv(rows));
    const keptRow = rows.find((r) => r.source === 'real' && rowKey(r) === first.key);

    const again = await runCli(['run', '--resume', out, '--retry-invalid'], { cwd: dir });
    expect(again.exitCode).toBe(0);
    expect(`${again.stderr}${again.stdout}`).toContain('1 of 2 points to measure');
    const log = runLog(out);
    const resumeAt = log.findIndex((e) => e.event === 'run-resume');
    const startedAfter = log.slice(resumeAt).filter((e) => e.event === 'point-start');
    expect(startedAfter.map((e) => e.key)).toEqual([second.key]);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.points.map((p) => p.state)).toEqual(['done', 'done']);
    expect(m.points[0].startedAt).toBe(first.startedAt);
    expect(m.points[1].startedAt).not.toBe(second.startedAt);
    // The collapsed point's row is kept as it was; the other's is the new measurement's.
    const after = parsePointsCsv(readFileSync(pointsPath, 'utf8'));
    expect(after).toHaveLength(4);
    expect(after.find((r) => r.source === 'real' && rowKey(r) === first.key)).toEqual(keptRow);
    // Once more, with nothing left to measure: the CPU record stays the measured points'. Before, it became
    // the few ms between two reads of /proc/stat (a reference run's read 2 busy cores over 0 s) whenever a
    // tick fell between them.
    expect(m.cpu?.seconds).toBeGreaterThan(0);
    const idle = await runCli(['run', '--resume', out], { cwd: dir });
    expect(idle.exitCode).toBe(0);
    expect(`${idle.stderr}${idle.stdout}`).toContain('0 of 2 points to measure');
    expect((JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest).cpu).toEqual(m.cpu);
  }, 240_000);
});
