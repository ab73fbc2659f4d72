// The agents' lease: every agent of a run carries the run's lease token and stops by itself when the lease
// file on its host has not been renewed for N seconds, so a killed orchestrator leaves nothing running.
//
// One mechanism for all three agents (target server, load generator and redis-server, which is not our
// code), identical on this machine and over SSH: a POSIX sh guard forks a watcher, then execs the agent in
// its own place (same pid, same process group, same title, so nothing else changes). The watcher checks the
// lease file's age every half second on the host's own clock (the renewal sets its mtime there, so the clocks
// of different hosts never meet) and sends the agent SIGTERM — its clean shutdown path — when it is older
// than N s (SIGKILL 1.5 s later if it still runs: with the orchestrator gone nobody collects what a slow
// shutdown would save, and a load generator flushing to a Redis that lapsed too could wait much longer).
// It also ends when the agent ends.
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { RunOptionError } from '../errors.ts';
import type { Host } from '../hosts/index.ts';

/** Default lease, seconds: three renewals (every N/3 s) may fail in a row before an agent stops. */
export const DEFAULT_LEASE_SECONDS = 15;

/** Refuses a lease the watcher (whole seconds, read every half second) cannot keep (< 3 s) or one longer than an hour. */
export function checkLeaseSeconds(seconds: number, what = '--lease'): number {
  if (!Number.isInteger(seconds) || seconds < 3 || seconds > 3600) {
    throw new RunOptionError(
      `${what} ${seconds}: the agents' lease is whole seconds from 3 to 3600 (default ${DEFAULT_LEASE_SECONDS}); agents stop by themselves that long after the orchestrator stopped renewing it`,
    );
  }
  return seconds;
}

// $1 lease file, $2 seconds, then the agent's argv. `$$` inside the subshell is the guard's pid, which
// becomes the agent's after `exec`. Alive = exists and not a zombie (orphans may never be reaped here).
const GUARD = [
  'f=$1; n=$2; shift 2; p=$$',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a sh parameter expansion, not a JS template
  'alive() { s=$(cat /proc/$p/stat 2>/dev/null) || return 1; s=${s##*) }; case $s in Z*|X*) return 1;; esac; return 0; }',
  '(',
  '  while :; do',
  '    sleep 0.5',
  '    alive || exit 0',
  '    m=$(stat -c %Y -- "$f" 2>/dev/null) || m=0',
  '    [ $(( $(date +%s) - m )) -gt "$n" ] && break',
  '  done',
  '  echo "hedgebench lease guard: $f not renewed for $n s: stopping pid $p (SIGTERM)" >&2',
  '  kill -s TERM $p 2>/dev/null',
  '  i=0; while alive && [ $i -lt 15 ]; do sleep 0.1; i=$((i+1)); done',
  '  alive && kill -s KILL $p 2>/dev/null',
  '  exit 0',
  ') </dev/null &',
  'exec "$@"',
].join('\n');

/** The lease of one execution of a run (a resumed run gets a new one; the old one simply lapses). */
export class AgentLease {
  /** Random, carried on every agent's command line (the lease file's path), so an agent is found by it. */
  readonly token: string;
  private timer: NodeJS.Timeout | undefined;
  private hosts: Host[] = [];
  private failures = 0;
  /** Renewals under way, per host: end() waits for them, or one finishing late would write the file back. */
  private readonly busy = new Map<Host, Promise<void>>();

  constructor(
    readonly seconds: number = DEFAULT_LEASE_SECONDS,
    token = randomBytes(8).toString('hex'),
  ) {
    this.token = token;
  }

  /** The lease file's name in a host's workDir; it contains the token. */
  get fileName(): string {
    return `hb-lease-${this.token}`;
  }

  /** The text that marks an agent of this lease on a command line. */
  get mark(): string {
    return this.fileName;
  }

  /** argv that runs `argv` under the guard on `host`. */
  guard(host: Host, argv: readonly string[]): string[] {
    const file = posix.join(host.workDir, this.fileName);
    return ['sh', '-c', GUARD, 'hb-lease-guard', file, String(this.seconds), ...argv];
  }

  /**
   * Writes the lease on every host (before any agent starts), then renews it every N/3 s. A failed renewal
   * is reported through `onFailure` and retried at the next tick; it never throws.
   */
  async begin(hosts: readonly Host[], onFailure: (host: Host, err: Error) => void): Promise<void> {
    this.hosts = [...hosts];
    await Promise.all(this.hosts.map((h) => this.renewOn(h)));
    const every = Math.max(500, Math.floor((this.seconds * 1000) / 3));
    this.timer = setInterval(() => {
      for (const h of this.hosts) {
        // A renewal still under way (a slow SSH round trip) is not doubled up.
        if (this.busy.has(h)) continue;
        const renewal = this.renewOn(h)
          .catch((err: Error) => {
            this.failures++;
            onFailure(h, err);
          })
          .finally(() => this.busy.delete(h));
        this.busy.set(h, renewal);
      }
    }, every);
    this.timer.unref();
  }

  /** Writes the lease on more hosts (another lane's, after begin) and renews it there from now on. */
  async extend(hosts: readonly Host[]): Promise<void> {
    await Promise.all(hosts.map((h) => this.renewOn(h)));
    this.hosts.push(...hosts);
  }

  /** Renewals that failed so far (each one retried at the next tick). */
  get failedRenewals(): number {
    return this.failures;
  }

  /** Stops renewing and deletes the lease files, so any agent still running stops within a second. Never throws. */
  async end(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.busy.values());
    await Promise.all(
      this.hosts.map((h) =>
        h
          .exec(['rm', '-f', '--', posix.join(h.workDir, this.fileName)], { timeoutMs: 15_000 })
          .catch(() => {}),
      ),
    );
  }

  private async renewOn(host: Host): Promise<void> {
    // The content is for a reader; the guard looks only at the file's mtime, set by the host's clock.
    await host.writeFile(this.fileName, `lease of ${this.seconds} s, renewed every ${this.seconds / 3} s\n`);
  }
}
