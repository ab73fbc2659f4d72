// Lanes: what runs one point (its target host(s) and load-generator host(s)). A run of L lanes measures L points
// at a time, in parallel, all writing to the one Redis; the count comes from the hosts file's `lanes`, or
// locally from `--lanes` (L sets of processes on this machine, sharing its cores).
import type { AgentRegistry } from './agent-registry.ts';
import type { Deployed } from './deploy.ts';
import { RunOptionError } from './errors.ts';
import { type HostsFile, MAX_LANES, type RunHosts } from './hosts/index.ts';
import type { RedisService } from './redis-service.ts';
import type { TargetAgent } from './target-agent.ts';

/** One lane, brought up: what its points need. */
export interface Lane {
  index: number;
  hosts: RunHosts;
  /** Each load-generator host's bundle and launcher, in `hosts.loadgens` order. */
  loadgens: Deployed[];
  redis: RedisService;
  targets: readonly TargetAgent[];
  registry: AgentRegistry;
}

/** Refuses a lane count outside 1..MAX_LANES. */
function checkLaneCount(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > MAX_LANES) {
    throw new RunOptionError(
      `--lanes ${n}: a run has 1 to ${MAX_LANES} lanes (default 1); each lane measures one point at a time`,
    );
  }
  return n;
}

/**
 * The run's lane count: the hosts file's lanes; else `--lanes`; else, on --resume, what the run had; else 1.
 * `--lanes` with a hosts file is refused (the file lists them), and so are several lanes against a foreign
 * service (points in parallel would add their loads on the one service, and every point would be wrong).
 */
export function laneCountOf(o: {
  option: number | undefined;
  hostsFile: HostsFile | undefined;
  resumed: number | undefined;
  foreign: boolean;
}): number {
  if (o.option !== undefined && o.hostsFile !== undefined) {
    throw new RunOptionError(
      `--lanes makes lanes on this machine; with --hosts the hosts file lists them ("lanes": [{ "target": …, "loadgen": … }, …]): drop --lanes`,
    );
  }
  const n = o.hostsFile?.lanes.length ?? checkLaneCount(o.option ?? o.resumed ?? 1);
  if (n > 1 && o.foreign) {
    throw new RunOptionError(
      `${n} lanes with a matrix naming target.url: points measured in parallel would add their loads on your one service; run it with one lane`,
    );
  }
  return n;
}

/** True when every host of the lane answers a command (after a failed point: was it the point, or the lane?). */
export async function laneReachable(lane: Lane): Promise<boolean> {
  const hosts = [...lane.hosts.loadgens, ...lane.hosts.targets];
  const answers = await Promise.all(
    hosts.map((h) =>
      h
        .exec(['true'], { timeoutMs: 10_000 })
        .then((r) => r.exitCode === 0)
        .catch(() => false),
    ),
  );
  return answers.every(Boolean);
}
