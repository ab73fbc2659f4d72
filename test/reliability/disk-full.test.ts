// A results folder on a disk that is too small, or full, is refused before anything starts: one line
// naming the folder and the fix, exit 1, no agent started. A disk that fills up mid-run stops the run
// with a clear error, the unfinished points stay pending, and --resume measures them once there is room.
// The disk is a real tmpfs this test mounts (as root) and unmounts; without root the suite says why it
// is skipped.

import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../contract/index.ts';
import {
  processesMentioning,
  requireBuild,
  rmTemp,
  runCli,
  runLog,
  tempDir,
  until,
  writeTinyMatrix,
} from '../orchestrator/fixture.ts';
import { csvLines, writeMatrix } from './fixture.ts';

/** Why tmpfs cannot be mounted here, or undefined when it can. */
async function mountProblem(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root; run the tests as root';
  const probe = tempDir('hb-rel-mount-probe-');
  const r = await execa('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { reject: false });
  if (r.exitCode !== 0) {
    rmTemp(probe);
    return `mount -t tmpfs failed (${String(r.stderr).trim()}); the container may forbid mounts`;
  }
  await execa('umount', [probe], { reject: false });
  rmTemp(probe);
  return undefined;
}

const skip = await mountProblem();
if (skip) console.warn(`test/reliability/disk-full.test.ts SKIPPED: ${skip}`);

let dir: string;
const mounts: string[] = [];

/** A fresh tmpfs of `size` (e.g. "1m") under the test's folder. */
async function tmpfs(name: string, size: string): Promise<string> {
  const mnt = join(dir, name);
  mkdirSync(mnt);
  await execa('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt]);
  mounts.push(mnt);
  return mnt;
}

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-rel-disk-');
});

afterAll(async () => {
  for (const m of mounts) {
    await execa('umount', ['-l', m], { reject: false });
    try {
      rmdirSync(m);
    } catch {}
  }
  rmTemp(dir);
});

/** The one-error contract of `hedgebench run`. */
function expectOneClearError(r: { exitCode?: number; stderr: unknown }, ...mentions: (string | RegExp)[]) {
  const stderr = String(r.stderr);
  expect(r.exitCode, stderr).toBe(1);
  expect(stderr).toContain('hedgebench: HB_RESULTS_FOLDER: ');
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr.split('\n').filter((l) => l.startsWith('hedgebench: HB_'))).toHaveLength(1);
  for (const m of mentions) expect(stderr).toMatch(m);
}

describe.skipIf(skip !== undefined)('a results folder on a small or full disk', () => {
  it('is refused before the run starts when the disk cannot hold the run (1 MiB tmpfs)', async () => {
    const mnt = await tmpfs('small', '1m');
    const out = join(mnt, 'run');
    const r = await runCli(['run', '--matrix', writeTinyMatrix(dir), '--out', out], { cwd: dir });
    expectOneClearError(
      r,
      out,
      /has 1 MiB free but this run needs about \d+ MiB/,
      /free some space/,
      /--out/,
    );
    // Nothing was started, and nothing but the empty folder skeleton was written.
    expect(readdirSync(out)).toEqual(['raw']);
    expect(await processesMentioning(out)).toEqual([]);
  });

  it('is refused before the run starts when the disk is full, saying so (not "permissions")', async () => {
    const mnt = await tmpfs('full', '256k');
    // Fill it to the last byte.
    await execa('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=4k'], { reject: false });
    expect(() => writeFileSync(join(mnt, 'one-more'), 'x')).toThrow(/ENOSPC/);
    const out = join(mnt, 'run');
    const r = await runCli(['run', '--matrix', writeTinyMatrix(dir), '--out', out], { cwd: dir });
    expectOneClearError(r, out, /full disk \(ENOSPC/, /free some space, or pass --out on another disk/);
    expect(String(r.stderr)).not.toContain('permissions');
  });

  it('stops with a clear error when the disk fills up mid-run, and --resume then measures every point', async () => {
    // Room for the start check (64 MiB + the raw data) and the agents' bundles the run deploys into its
    // folder (~8 MiB with gRPC), no more.
    const mnt = await tmpfs('fills', '80m');
    const out = join(mnt, 'run');
    const matrix = writeMatrix(dir, 'fills', { calls: 400, config: 'no hedge', loads: [0.3, 0.5] });
    const running = runCli(['run', '--matrix', matrix, '--out', out], { cwd: dir });
    await until(() => runLog(out).some((e) => e.event === 'point-start'), 60_000, 'the first point');
    // The fault must hit a point while it is measured: wait for its load generator, and check that no
    // point has finished before the disk fills.
    await until(async () => (await loadgensOf(out)) > 0, 30_000, 'the first point’s load generator');
    expect(runLog(out).some((e) => e.event === 'point-done')).toBe(false);
    await execa('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=1M'], { reject: false });
    const r = await running;
    expectOneClearError(r, `results folder ${out}: the disk filled up during the run`, `--resume ${out}`);
    const before = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(before.points.map((p) => p.state)).toEqual(['pending', 'pending']);
    expect(readdirSync(out).filter((f) => f.includes('.tmp-'))).toEqual([]);

    rmSync(join(mnt, 'filler'));
    const again = await runCli(['run', '--resume', out], { cwd: dir });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const after = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(after.points.map((p) => p.state)).toEqual(['done', 'done']);
    for (const p of after.points) {
      expect(csvLines(join(out, 'raw', `${p.slug}.calls.csv`))).toHaveLength(360);
    }
    expect(await processesMentioning(out)).toEqual([]);
  }, 120_000);
});

/** Load-generator processes of the run in `out` (their command lines name the run folder and, in the spec, a point slug). */
async function loadgensOf(out: string): Promise<number> {
  const r = await execa('ps', ['-eo', 'args='], { reject: false });
  return String(r.stdout)
    .split('\n')
    .filter((l) => l.includes(out) && l.includes('"slug":')).length;
}
