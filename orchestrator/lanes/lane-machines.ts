// Whether the lanes of a hosts file share one machine. Hosts that are network namespaces of one box (the lab,
// scripts/lab.sh) share its kernel and its cores, so their lanes take CPU from each other as lanes made with
// `--lanes` do; `--lanes auto` then keeps as few as on this machine. One kernel has one boot id, which every
// host can read without privileges.
import { type HostsFile, openHosts } from '../hosts/index.ts';

/** The one machine every lane's target and load-generator hosts run on, or null when they are not all on one. */
export interface SharedMachine {
  bootId: string;
  cores: number;
  hosts: number;
}

const PROBE = ['sh', '-c', 'cat /proc/sys/kernel/random/boot_id && nproc'];

/**
 * Asks every target and load-generator host of every lane for its kernel's boot id and core count. Null when
 * the ids differ, or when a host does not answer (the run's own start then says what is wrong with it).
 */
export async function sharedMachine(file: HostsFile, runDir: string): Promise<SharedMachine | null> {
  const answers: { bootId: string; cores: number }[] = [];
  for (let lane = 0; lane < file.lanes.length; lane++) {
    const hosts = await openHosts(file, runDir, 1, lane);
    try {
      for (const h of [...hosts.targets, ...hosts.loadgens]) {
        const r = await h.exec(PROBE, { timeoutMs: 15_000 }).catch(() => null);
        const [bootId, cores] = (r?.exitCode === 0 ? r.stdout : '').trim().split('\n');
        if (!bootId || !Number.isInteger(Number(cores))) return null;
        answers.push({ bootId, cores: Number(cores) });
      }
    } finally {
      await hosts.close();
    }
  }
  const first = answers[0];
  if (!first || answers.some((a) => a.bootId !== first.bootId)) return null;
  return { bootId: first.bootId, cores: first.cores, hosts: answers.length };
}
