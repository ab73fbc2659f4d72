// What the real clock can run of the replica dimensions (model/replica-dims.ts), checked before anything
// starts: one issue per field the run cannot honour, naming the field, the value and what to do instead.

import {
  errorProbsNotes,
  type Matrix,
  MatrixInvalidError,
  peerCancelCopies,
  replicaNotes,
  tiedPeersIssue,
} from '../../model/index.ts';
import type { HostsFile } from '../hosts/index.ts';

/** Target hosts a hosts file offers every lane: replica r runs on a lane's r-th (`"target": [...]`; one host = 1). */
function targetHostCount(hosts: HostsFile): number {
  return Math.min(...hosts.lanes.map((l) => l.targets.length));
}

/**
 * Throws MatrixInvalidError when the matrix asks the real clock for what it cannot do: more replicas than
 * target hosts in the hosts file (locally, each replica is its own target-server process, so any number
 * runs), replicas over gRPC (the load generator balances across replicas over HTTP/1.1 only), or tied copies
 * it cannot tie (tiedRunIssues). `hedgebench simulate` runs every one of them.
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
  issues.push(...tiedRunIssues(m));
  throwIssues(issues);
}

/**
 * What the real clock cannot do of the matrix's tied configurations (copies cancelling each other on start):
 * copies over gRPC (the peer cancel and the copies' siblings travel over HTTP/1.1), and a balancer whose picks
 * cannot be told when a call starts with more replicas than copies (model/tied-peers.ts). One issue each.
 */
export function tiedRunIssues(m: Matrix): string[] {
  const issues: string[] = [];
  for (const c of m.configs) {
    if (peerCancelCopies(c) === 0) continue;
    if ((m.transport ?? []).includes('grpc')) {
      issues.push(
        `transport: grpc with the tied configuration ${JSON.stringify(c.name)}: its copies cancel each other over HTTP/1.1 only (GET /work names each copy's siblings, POST /peer-cancel removes them); measure it with transport ["http1"], or simulate it with \`hedgebench simulate\``,
      );
    }
    for (const balancer of m.balancer ?? ['random']) {
      const R = (m.replicas ?? [1]).find((r) => r >= 2 && tiedPeersIssue(c, balancer, r) !== null);
      if (R !== undefined) issues.push(`balancer: ${tiedPeersIssue(c, balancer, R)}`);
    }
  }
  return issues;
}

/** Throws MatrixInvalidError listing `issues`, if any. */
export function throwIssues(issues: readonly string[]): void {
  if (issues.length > 0) {
    throw new MatrixInvalidError(`the matrix cannot run on the real clock:\n  - ${issues.join('\n  - ')}`, [
      ...issues,
    ]);
  }
}

/**
 * The plan's notes on settings that change nothing (replica settings, allowed; said once before the run), and
 * on an errorProbs sweep against a foreign target (the service fails by itself).
 */
export function replicaPlanNotes(m: Matrix): string[] {
  return [...replicaNotes(m), ...errorProbsNotes(m)].map((n) => `note: ${n}`);
}
