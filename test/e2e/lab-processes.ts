// Which processes still live in a lab's namespaces, or mention a folder: the evidence that a run left no agent.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A live process: pid and command line. */
export interface Proc {
  pid: number;
  cmd: string;
}

/** The process's command line and whether it is a zombie (null when it is gone). */
function inspect(pid: number): { cmd: string; zombie: boolean } | null {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return { cmd, zombie: state === 'Z' || state === 'X' };
  } catch {
    return null;
  }
}

/** Live (non-zombie) processes inside network namespace `ns` (`ip netns pids`). */
export function processesInNamespace(ns: string): Proc[] {
  const out = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^\d+$/.test(l.trim()))
    .map((l) => Number(l.trim()))
    .flatMap((pid) => {
      const p = inspect(pid);
      return p && !p.zombie ? [{ pid, cmd: p.cmd }] : [];
    });
}

/** Live processes anywhere on this machine whose command line mentions `text`, this process excluded. */
export function processesMentioning(text: string): Proc[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((pid) => pid !== process.pid)
    .flatMap((pid) => {
      const p = inspect(pid);
      return p && !p.zombie && p.cmd.includes(text) ? [{ pid, cmd: p.cmd }] : [];
    });
}

/**
 * Polls `look` until it returns an empty list or `ms` pass; returns the last list. Processes that are being
 * stopped (an ssh session closing after its master left) get a moment to go.
 */
export async function settle(look: () => Proc[], ms = 5_000): Promise<Proc[]> {
  const deadline = Date.now() + ms;
  let procs = look();
  while (procs.length > 0 && Date.now() < deadline) {
    await sleep(100);
    procs = look();
  }
  return procs;
}
