// agents.json: every process a run starts (role, host, pid, the lease token it carries), recorded BEFORE it
// starts, so a resumed run finds and stops the agents a killed run left behind — local or remote, even one
// started in the instant before the kill, whose pid never reached the file — and the normal end stops
// exactly what it started.
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import type { Host } from '../hosts/index.ts';
import type { AgentLease } from './lease.ts';

/** One agent. `match` is a substring of its command line, checked before a recorded pid is killed. */
export interface AgentRecord {
  role: 'redis' | 'target' | 'loadgen';
  /** Host.name of the host it runs on. */
  host: string;
  /** 0 while it is being started (recorded, pid not yet known). */
  pid: number;
  match: string;
  /** The lease token on its command line (absent in runs of older versions): finds it without a pid. */
  token?: string;
  startedAt: string;
}

/** The agents of one run folder, persisted on every change; `lease` is what this execution's agents carry. */
export class AgentRegistry {
  private agents: AgentRecord[];

  constructor(
    readonly path: string,
    readonly lease: AgentLease | null = null,
  ) {
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

  /** Records an agent about to start (pid 0); `started` fills in its pid. */
  planned(rec: Omit<AgentRecord, 'startedAt' | 'pid'>): AgentRecord {
    const r: AgentRecord = { ...rec, pid: 0, startedAt: new Date().toISOString() };
    if (r.token === undefined) delete r.token;
    this.agents.push(r);
    this.save();
    return r;
  }

  /** Fills in the pid of an agent recorded by `planned`. */
  started(rec: AgentRecord, pid: number): void {
    rec.pid = pid;
    this.save();
  }

  /** Forgets a record of `planned` whose start failed. */
  forget(rec: AgentRecord): void {
    this.agents = this.agents.filter((a) => a !== rec);
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
async function isOurProcess(host: Host, pid: number, match: string): Promise<boolean> {
  if (!(await host.isAlive(pid))) return false;
  const r = await host.exec(['ps', '-o', 'args=', '-p', String(pid)], { timeoutMs: 15_000 });
  return r.exitCode === 0 && r.stdout.includes(match);
}

/**
 * Process groups on `host` with a live member whose command line carries the lease token. Agents lead their
 * own group (started detached) and their lease guard is in it, so a group found this way is one agent —
 * redis-server included, though it rewrites its own title.
 */
async function groupsCarrying(host: Host, token: string): Promise<number[]> {
  const r = await host.exec(['ps', '-eo', 'pgid=,stat=,args='], { timeoutMs: 15_000 });
  if (r.exitCode !== 0) throw new Error(`ps failed on host ${host.name}: ${r.stderr.trim()}`);
  // The lease file's full path: roles sharing a machine (all of them, locally) have their own workDirs.
  const mark = posix.join(host.workDir, `hb-lease-${token}`);
  const groups = new Set<number>();
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m && !m[2].startsWith('Z') && m[3].includes(mark) && Number(m[1]) > 1) groups.add(Number(m[1]));
  }
  return [...groups];
}

/**
 * Stops every recorded agent still running and forgets it. An agent with a lease token is found by the
 * token (its pid may never have been recorded); an older record by its pid, its command line checked first.
 * Returns what it stopped, for the log. Hosts are looked up by name; an unknown host name is skipped and kept.
 */
export async function reapAgents(
  registry: AgentRegistry,
  hosts: ReadonlyMap<string, Host>,
): Promise<AgentRecord[]> {
  const stopped: AgentRecord[] = [];
  const searched = new Map<string, Set<number>>();
  // Newest first: a load generator goes before the target it calls, the target before its Redis, so
  // nothing waits on a peer that is being stopped. Leftovers' data is not kept: a short grace suffices.
  for (const a of [...registry.list()].reverse()) {
    const host = hosts.get(a.host);
    if (!host) continue;
    try {
      if (a.token !== undefined) {
        const key = `${a.host} ${a.token}`;
        let groups = searched.get(key);
        if (!groups) {
          groups = new Set(await groupsCarrying(host, a.token));
          searched.set(key, groups);
        }
        // Its own group if its pid is known; else (started in the instant before a kill) every group of
        // the token not claimed by a record with a pid (on any host: locally all hosts are this machine).
        const claimed = new Set(
          registry
            .list()
            .filter((x) => x.token === a.token && x.pid > 0)
            .map((x) => x.pid),
        );
        const mine =
          a.pid > 0 ? [a.pid].filter((p) => groups.has(p)) : [...groups].filter((g) => !claimed.has(g));
        for (const g of mine) {
          await host.stop(g, { timeoutMs: 2_000 });
          groups.delete(g);
          stopped.push({ ...a, pid: g });
        }
        registry.forget(a);
        continue;
      }
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
