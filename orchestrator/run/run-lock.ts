// run.lock: one orchestrator at a time per run folder; a lock left by a killed run is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ResumeError } from '../errors.ts';
import { isLocalPidAlive } from '../hosts/index.ts';

/** Takes the folder's lock; throws when a live process holds it (the run is still going). */
export async function acquireRunLock(path: string): Promise<() => void> {
  const mine = `${process.pid}\n`;
  try {
    writeFileSync(path, mine, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (
      Number.isSafeInteger(pid) &&
      pid > 1 &&
      pid !== process.pid &&
      (await isLocalPidAlive(pid)) &&
      isNode(pid)
    ) {
      throw new ResumeError(
        `${path} is held by process ${pid}, which is still running; wait for that run to end (or stop it with Ctrl-C) before resuming`,
      );
    }
    writeFileSync(path, mine);
  }
  return () => {
    try {
      if (readFileSync(path, 'utf8') === mine) rmSync(path);
    } catch {}
  };
}

/** True when the pid runs node (a pid reused by an unrelated program does not hold the lock). */
function isNode(pid: number): boolean {
  try {
    return /node|hedgebench/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}
