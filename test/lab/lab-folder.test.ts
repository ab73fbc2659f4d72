// scripts/lab.sh in a checkout below a world-writable folder (as /tmp is): without DIR it chooses the
// root-only folder the tests use and says where; with such a DIR, `up` refuses before it makes anything.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_IDS, LAB_SH, labSkipReason, warnLabSkipped } from './lab-fixture.ts';

const skip = labSkipReason();
if (skip) warnLabSkipped('lab folder tests (test/lab/lab-folder.test.ts)', skip);
const ID = String(LAB_IDS.labFolder);

let shared: string;
let checkout: string;
let script: string;

beforeAll(() => {
  shared = mkdtempSync(join(tmpdir(), 'hb-lab-shared-'));
  chmodSync(shared, 0o1777);
  checkout = join(shared, 'checkout');
  mkdirSync(join(checkout, 'scripts'), { recursive: true });
  script = join(checkout, 'scripts', 'lab.sh');
  copyFileSync(LAB_SH, script);
  chmodSync(script, 0o755);
});

afterAll(() => rmSync(shared, { recursive: true, force: true }));

const lab = (...args: string[]) =>
  execa(script, args, { env: { HB_LAB_ID: ID }, reject: false, all: true, timeout: 60_000 });

describe.skipIf(skip !== undefined)('scripts/lab.sh below a world-writable folder', () => {
  it('without DIR, uses /var/lib/hedgebench-lab/<hash of the checkout> and says why', async () => {
    const r = await lab('status');
    const chosen = join(
      '/var/lib/hedgebench-lab',
      createHash('sha256').update(checkout).digest('hex').slice(0, 12),
    );
    expect(String(r.stdout)).toContain(`lab: ${join(checkout, '.lab')} is inside ${shared} (mode 1777`);
    expect(String(r.stdout)).toContain(`using ${chosen} instead`);
    expect(existsSync(join(checkout, '.lab'))).toBe(false);
  });

  it('with such a DIR, up refuses before making anything, naming the folder and the way out', async () => {
    const dir = join(checkout, 'lab-here');
    const r = await lab('up', dir);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain(`lab: error: DIR ${dir} is inside ${shared} (mode 1777`);
    expect(String(r.stderr)).toContain('leave DIR out');
    expect(existsSync(dir)).toBe(false);
    expect(String((await execa('ip', ['netns', 'list'])).stdout)).not.toContain(`hb${ID}-`);
  });
});
