// The run folder's guarantees: room and write access are checked before a run starts, the manifest is
// replaced atomically, the lock keeps a second orchestrator out and is taken over from a dead one.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunFolder } from '../../orchestrator/plan/run-folder.ts';
import { acquireRunLock } from '../../orchestrator/run/run-lock.ts';
import { rmTemp, tempDir } from './fixture.ts';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmTemp(dir));

describe('RunFolder', () => {
  it('refuses a run whose raw data cannot fit on the disk, before anything starts', () => {
    const f = new RunFolder(join(dir, 'big'));
    expect(() => f.preflight(1e15)).toThrow(/free but this run needs about .* MiB.*lower --calls/);
    expect(() => f.preflight(1000)).not.toThrow();
    expect(readdirSync(f.dir)).toEqual(['raw']); // the write probe leaves nothing behind
  });

  it('refuses a folder that cannot be created', () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    expect(() => new RunFolder(join(file, 'run')).preflight(10)).toThrow(
      expect.objectContaining({ code: 'HB_RESULTS_FOLDER' }),
    );
  });

  it('reads back what it wrote and rejects a manifest that is not one', () => {
    const f = new RunFolder(join(dir, 'm'));
    f.preflight(10);
    writeFileSync(f.manifestPath, JSON.stringify({ version: 1, run: 'm', points: [] }));
    expect(() => f.readManifest()).toThrow(expect.objectContaining({ code: 'HB_RESUME' }));
    f.event('hello', { n: 1 });
    expect(JSON.parse(readFileSync(f.logPath, 'utf8'))).toMatchObject({ event: 'hello', n: 1 });
    expect(readdirSync(f.dir).some((n) => n.includes('.tmp-'))).toBe(false);
  });
});

describe('acquireRunLock', () => {
  it('keeps out a second live holder and takes over a lock whose holder is dead', async () => {
    const lock = join(dir, 'run.lock');
    // Held by a live node process that is not us (the vitest parent).
    writeFileSync(lock, `${process.ppid}\n`);
    await expect(acquireRunLock(lock)).rejects.toMatchObject({ code: 'HB_RESUME' });
    // Held by a process that no longer exists (a SIGKILLed run).
    writeFileSync(lock, '999999999\n');
    const release = await acquireRunLock(lock);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lock)).toBe(false);
  });
});
