// What the real clock can run of the replica dimensions (model/replica-dims.ts), checked before anything
// starts: one issue per field the run cannot honour, naming the field, the value and what to do instead.

import { type Matrix, MatrixInvalidError, replicaNotes } from '../model/index.ts';
import type { HostsFile } from './hosts/index.ts';

/** Target hosts a hosts file offers (one `target` entry today). */
export function targetHostCount(_hosts: HostsFile): number {
  return 1;
}

/**
 * Throws MatrixInvalidError when the matrix asks the real clock for what it cannot do: more replicas than
 * target hosts in the hosts file, or — not wired yet on the real side — replicas, correlated stragglers or a
 * slow replica at all. `hedgebench simulate` runs every one of them.
 */
export function checkReplicasRunnable(m: Matrix, hosts: HostsFile | undefined, hostsPath?: string): void {
  const issues: string[] = [];
  const most = Math.max(...(m.replicas ?? [1]));
  if (most > 1) {
    if (hosts !== undefined) {
      const n = targetHostCount(hosts);
      const file = hostsPath === undefined ? 'the hosts file' : `the hosts file ${hostsPath}`;
      issues.push(
        `replicas: ${most} is above the ${n} target host${n === 1 ? '' : 's'} in ${file}; list at most ${n}, or simulate the replicas with \`hedgebench simulate\``,
      );
    } else {
      issues.push(
        `replicas: ${most}: the real clock runs one target per point for now; leave replicas out (or [1]) for \`hedgebench run\`, and simulate the replicas with \`hedgebench simulate\``,
      );
    }
  }
  if ((m.correlation ?? []).some((c) => c > 0)) {
    issues.push(
      'correlation: the target server draws independent stragglers only for now; leave correlation out (or [0]) for `hedgebench run`, and simulate it with `hedgebench simulate`',
    );
  }
  if ((m.slowReplica ?? []).some((f) => f > 1)) {
    issues.push(
      'slowReplica: the real clock has no degraded replica yet; leave slowReplica out (or [1]) for `hedgebench run`, and simulate it with `hedgebench simulate`',
    );
  }
  if (issues.length > 0) {
    throw new MatrixInvalidError(
      `the matrix cannot run on the real clock:\n  - ${issues.join('\n  - ')}`,
      issues,
    );
  }
}

/** The plan's notes on replica settings that change nothing (allowed; said once before the run). */
export function replicaPlanNotes(m: Matrix): string[] {
  return replicaNotes(m).map((n) => `note: ${n}`);
}
