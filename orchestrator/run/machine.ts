// Facts a manifest records so a result can be traced: machine, versions, git commit.

import { readFileSync } from 'node:fs';
import { cpus, hostname, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { MachineFacts } from '../../contract/index.ts';
import { PACKAGE_ROOT } from '../paths.ts';

/** CPU count, memory, OS and host name of this machine. */
export function machineFacts(): MachineFacts {
  return {
    cpus: cpus().length,
    memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    hostname: hostname(),
  };
}

/** The commit of the package's checkout (with `-dirty` when files differ), or null outside git. */
export async function gitCommit(): Promise<string | null> {
  const opts = { cwd: PACKAGE_ROOT, reject: false, timeout: 5000 } as const;
  const head = await execa('git', ['rev-parse', 'HEAD'], opts).catch(() => undefined);
  if (head?.exitCode !== 0) return null;
  const status = await execa('git', ['status', '--porcelain', '--untracked-files=no'], opts).catch(
    () => undefined,
  );
  const dirty = status && status.exitCode === 0 && String(status.stdout).trim() !== '';
  return `${String(head.stdout).trim()}${dirty ? '-dirty' : ''}`;
}

/** hedgebench's version from package.json. */
export function hedgebenchVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}
