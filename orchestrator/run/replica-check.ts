// What the real clock can run of the replica dimensions (model/replica-dims.ts), checked before anything
// starts: one issue per field the run cannot honour, naming the field, the value and what to do instead.

import { errorProbsNotes, type Matrix, MatrixInvalidError, replicaNotes } from '../../model/index.ts';
import type { HostsFile } from '../hosts/index.ts';

/** Target hosts a hosts file offers every lane: replica r runs on a lane's r-th (`"target": [...]`; one host = 1). */
export function targetHostCount(hosts: HostsFile): number {
  return Math.min(...hosts.lanes.map((l) => l.targets.length));
}

/**
 * Throws MatrixInvalidError when the matrix asks the real clock for what it cannot do: more replicas than
 * target hosts in the hosts file (locally, each replica is its own target-server process, so any number
 * runs), or replicas over gRPC (the load generator balances across replicas over HTTP/1.1 only).
 * `hedgebench simulate` runs every one of them.
 */
export function checkReplicasRunnable(m: Matrix, hosts: HostsFile | undefined, hostsPath?: string): void {
  const issues: string[] = [];
  const most = Math.max(...(m.replicas ?? [1]));
  if (most > 1 && hosts !== undefined) {
    const n = targetHostCount(hosts);
    const file = hostsPath === undefined ? 'the hosts file' : `the hosts file ${hostsPath}`;
    if (most > n) {
      issues.push(
        `replicas: ${most} is above the ${n} target host${n === 1 ? '' : 's'} ${hosts.laneList ? 'of a lane ' : ''}in ${file}; list at most ${n}, or list ${most} target hosts there ("target": [{…}, …], one per replica; scripts/lab.sh makes them with HB_LAB_TARGETS=${most}), or simulate the replicas with \`hedgebench simulate\``,
      );
    }
  }
  if (most > 1 && (m.transport ?? []).includes('grpc')) {
    issues.push(
      `replicas: ${most} with transport grpc: the load generator balances across replicas over HTTP/1.1 only; measure the replicas with transport ["http1"] and gRPC with replicas [1] (two matrices), or simulate both with \`hedgebench simulate\``,
    );
  }
  if (issues.length > 0) {
    throw new MatrixInvalidError(
      `the matrix cannot run on the real clock:\n  - ${issues.join('\n  - ')}`,
      issues,
    );
  }
}

/**
 * The plan's notes on settings that change nothing (replica settings, allowed; said once before the run), and
 * on an errorProbs sweep against a foreign target (the service fails by itself).
 */
export function replicaPlanNotes(m: Matrix): string[] {
  return [...replicaNotes(m), ...errorProbsNotes(m)].map((n) => `note: ${n}`);
}
