// Lanes: what runs one point (its target host(s) and load-generator host(s)). A run of L lanes measures L points
// at a time, in parallel, all writing to the one Redis; the count comes from the hosts file's `lanes`, or
// locally from `--lanes` (L sets of processes on this machine, sharing its cores).
import { availableParallelism } from 'node:os';
import type { AgentRegistry } from '../agents/agent-registry.ts';
import type { Deployed } from '../agents/deploy.ts';
import type { RedisService } from '../agents/redis-service.ts';
import type { TargetAgent } from '../agents/target-agent.ts';
import { RunOptionError } from '../errors.ts';
import { type HostsFile, MAX_LANES, type RunHosts } from '../hosts/index.ts';
import type { SharedMachine } from './lane-machines.ts';

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
 * Cores one lane keeps busy, per target server and load generator it runs beyond the first pair (R replicas
 * and K clients make R + K − 1 of them): a part every process keeps whatever k is (start-up, warm-up, clock
 * exchanges, Redis, the orchestrator's share) and a part that shrinks as 1/k with the rate. Fitted to the
 * cores whole runs kept busy, with one and four replicas and four clients, undilated and dilated
 * (bench/RESULTS.md, "What a lane costs").
 */
const LANE_FIXED_CORES = 0.23;
const LANE_RATE_CORES = 0.65;
/** `--lanes auto` keeps the lanes' CPU under this share of the machine's cores, so each lane stays quiet. */
const LANE_CPU_SHARE = 0.5;
/** `--lanes auto` never makes more lanes than this on one machine. */
const AUTO_MAX_LANES = 3;

/** Cores a lane of R target servers and K load generators at time scale k keeps busy (the fit above). */
function laneCores(timeScale: number, replicas = 1, clients = 1): number {
  return (replicas + clients - 1) * (LANE_FIXED_CORES + LANE_RATE_CORES / timeScale);
}

/** What `--lanes auto` chose and why, for the run's first lines. */
interface AutoLanes {
  lanes: number;
  reason: string;
}

/**
 * `--lanes auto` on this machine: as many lanes as keep laneCores(k, R, K) per lane under LANE_CPU_SHARE of
 * the cores (at most AUTO_MAX_LANES, at most one per point; R and K are the most replicas and clients a point
 * has). Undilated, that is one lane on two cores.
 */
export function autoLanes(o: {
  cores: number;
  timeScale: number;
  points: number;
  replicas?: number;
  clients?: number;
}): AutoLanes {
  const replicas = o.replicas ?? 1;
  const clients = o.clients ?? 1;
  const perLane = laneCores(o.timeScale, replicas, clients);
  const fit = Math.floor((LANE_CPU_SHARE * o.cores) / perLane + 1e-9);
  const lanes = Math.max(1, Math.min(AUTO_MAX_LANES, fit, o.points));
  const why =
    lanes === AUTO_MAX_LANES && fit > lanes
      ? `at most ${AUTO_MAX_LANES} on one machine`
      : lanes === o.points && fit > lanes
        ? `one per point`
        : `${(LANE_CPU_SHARE * 100).toFixed(0)} % of ${o.cores} cores`;
  const parts = [
    ...(replicas > 1 ? [`${replicas} target servers`] : []),
    ...(clients > 1 ? [`${clients} load generators`] : []),
  ];
  const what = parts.length > 0 ? `with ${parts.join(' and ')} a lane needs` : 'a lane needs';
  return {
    lanes,
    reason: `lanes auto: ${lanes} (time scale ${o.timeScale}: ${what} about ${perLane.toFixed(2)} cores; ${why})`,
  };
}

/**
 * The run's lane count: the hosts file's lanes; else `--lanes` (a number, or "auto": autoLanes); else, on
 * --resume, what the run had; else, on this machine, "auto" when every point is dilated, 1 when not.
 * With a hosts file, `--lanes auto` keeps every lane of the file unless they share one machine
 * (`shared`, lane-machines.ts): then as many as autoLanes allows on that machine, and it says why. A number
 * of lanes with a hosts file is refused (the file lists them), and so are several lanes against a foreign
 * service (points in parallel would add their loads on the one service, and every point would be wrong).
 */
export function laneCountOf(o: {
  option: number | 'auto' | undefined;
  hostsFile: HostsFile | undefined;
  resumed: number | undefined;
  foreign: boolean;
  /** For "auto": the plan's smallest time scale, its point count, the most replicas and clients of a point. */
  timeScale?: number;
  points?: number;
  replicas?: number;
  clients?: number;
  cores?: number;
  /** With a hosts file and "auto": the one machine all its lanes run on; null or absent = machines of their own. */
  shared?: SharedMachine | null;
  /** Told what "auto" chose. */
  say?: (text: string) => void;
}): number {
  if (typeof o.option === 'number' && o.hostsFile !== undefined) {
    throw new RunOptionError(
      `--lanes ${o.option} makes lanes on this machine; with --hosts the hosts file lists them ("lanes": [{ "target": …, "loadgen": … }, …]): drop --lanes, or use --lanes auto to keep fewer of them when they share one machine`,
    );
  }
  const k = o.timeScale ?? 1;
  const points = o.points ?? 1;
  const replicas = o.replicas ?? 1;
  const clients = o.clients ?? 1;
  const auto =
    o.option === 'auto' ||
    (o.option === undefined && o.resumed === undefined && o.hostsFile === undefined && k > 1);
  let n: number;
  if (o.hostsFile !== undefined) {
    n = o.hostsFile.lanes.length;
    if (o.option === 'auto') {
      const m = o.shared;
      if (m) {
        const a = autoLanes({ cores: m.cores, timeScale: k, points, replicas, clients });
        n = Math.min(n, a.lanes);
        o.say?.(
          `hedgebench: lanes auto: ${n} of the hosts file's ${o.hostsFile.lanes.length} lanes: its ${m.hosts} target and load-generator hosts share one machine (one kernel, boot id ${m.bootId.slice(0, 8)}…, ${m.cores} cores), so its lanes take CPU from each other (${a.reason.replace(/^lanes auto: \d+ /, '')})`,
        );
      } else {
        o.say?.(
          `hedgebench: lanes auto: all ${n} lanes of the hosts file (their hosts are not all on one machine)`,
        );
      }
    }
  } else if (auto && !o.foreign) {
    const a = autoLanes({
      cores: o.cores ?? availableParallelism(),
      timeScale: k,
      points,
      replicas,
      clients,
    });
    o.say?.(`hedgebench: ${a.reason}`);
    n = a.lanes;
  } else n = checkLaneCount(typeof o.option === 'number' ? o.option : (o.resumed ?? 1));
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
