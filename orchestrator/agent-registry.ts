// agents.json: every process a run starts (role, host, pid), so a resumed run finds and stops the agents
// that a killed run left behind — local or remote — and the normal end stops exactly what it started.
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from './atomic-file.ts';
import type { Host } from './hosts/index.ts';

/** One started process. `match` is a substring of its command line, checked before it is killed. */
export interface AgentRecord {
  role: 'redis' | 'target' | 'loadgen';
  /** Host.name of the host it runs on. */
  host: string;
  pid: number;
  match: string;
  startedAt: string;
}

/** The agents of one run folder, persisted on every change. */
export class AgentRegistry {
  private agents: AgentRecord[];

  constructor(readonly path: string) {
    this.agents = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AgentRecord[]) : [];
  }

  /** Every agent recorded and not yet removed. */
  list(): readonly AgentRecord[] {
    return this.agents;
  }

  /** Records a started process. */
  add(rec: Omit<AgentRecord, 'startedAt'>): void {
    this.agents.push({ ...rec, startedAt: new Date().toISOString() });
    this.save();
  }

  /** Forgets a process once it is stopped. */
  remove(host: string, pid: number): void {
    this.agents = this.agents.filter((a) => !(a.host === host && a.pid === pid));
    this.save();
  }

  private save(): void {
    writeFileAtomicSync(this.path, `${JSON.stringify(this.agents, null, 2)}\n`);
  }
}

/** True when `pid` on `host` is alive AND its command line contains `match` (a reused pid is left alone). */
export async function isOurProcess(host: Host, pid: number, match: string): Promise<boolean> {
  if (!(await host.isAlive(pid))) return false;
  const r = await host.exec(['ps', '-o', 'args=', '-p', String(pid)], { timeoutMs: 15_000 });
  return r.exitCode === 0 && r.stdout.includes(match);
}

/**
 * Stops every recorded agent still running (checking its command line first) and forgets it. Returns
 * what it stopped, for the log. Hosts are looked up by name; an unknown host name is skipped and kept.
 */
export async function reapAgents(
  registry: AgentRegistry,
  hosts: ReadonlyMap<string, Host>,
): Promise<AgentRecord[]> {
  const stopped: AgentRecord[] = [];
  // Newest first: a load generator goes before the target it calls, the target before its Redis, so
  // nothing waits on a peer that is being stopped. Leftovers' data is not kept: a short grace suffices.
  for (const a of [...registry.list()].reverse()) {
    const host = hosts.get(a.host);
    if (!host) continue;
    try {
      if (await isOurProcess(host, a.pid, a.match)) {
        await host.stop(a.pid, { timeoutMs: 2_000 });
        stopped.push(a);
      }
      registry.remove(a.host, a.pid);
    } catch {
      // Unreachable now: keep the record so a later resume can try again.
    }
  }
  return stopped;
}
