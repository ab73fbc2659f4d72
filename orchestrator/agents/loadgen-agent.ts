// The load generator as an agent: one process per point — or K of them for a point with `clients: K`,
// each sending its share of the calls — started on the load-generator host.
import { availableParallelism } from 'node:os';
import { type PointSpec, pointSpecJson } from '../../contract/index.ts';
import {
  type Point,
  parsePerturbation,
  perturbedConfig,
  replicaSetupOf,
  timeScaleOf,
} from '../../model/index.ts';
import type { Host } from '../hosts/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import { startAgent } from './agent-start.ts';
import type { Deployed } from './deploy.ts';
import { redisEnv } from './redis-service.ts';

/** What one load-generator process is told. */
interface LoadgenArgs {
  deployed: Deployed;
  targetUrl: string;
  /** `host:port` of the target's gRPC listener (needed by points over gRPC). */
  grpcTarget?: string;
  /** URLs of replicas 1..R−1 when the point has R > 1 replicas (`targetUrl` is replica 0). */
  replicaTargets?: readonly string[];
  point: Point;
  redisUrl: string;
  /** The CA of a rediss:// Redis, on the load generator's host (RedisService.caFileOn); absent = none needed. */
  redisCaFile?: string | undefined;
  run: string;
  slug: string;
  /** Wall-time cap of the point (the generator stops early and marks the point collapsed). */
  maxSeconds: number;
  /** The send-lag p99 limit of the generator's self-check, model ms; absent = the generator's default (1). */
  sendLagThresholdMs?: number;
  /** This process is client `client` of `clients` (default 0 of 1: the point's only load generator). */
  client?: number;
  clients?: number;
  /** A user's own service instead of hedgebench's target server (`targetUrl` is then its origin). */
  foreign?: ForeignLoad;
}

/** How the load generator reaches a foreign service: its route, and whether it may be off loopback. */
export interface ForeignLoad {
  /** Path and query of the service's URL; call=N&attempt=K are added to each request. */
  path: string;
  allowAnyTarget: boolean;
}

/** How a dilated load generator is started where `chrt` works: a high CFS weight, not SCHED_FIFO. */
const DILATED_LAUNCHER: readonly string[] = ['nice', '-n', '-10'];

/** The real-time priority the embedded load generator runs at (SCHED_FIFO, low among real-time tasks). */
const LOADGEN_RT_PRIORITY = 10;

/** How the load generator will be launched on this run's machine, and why (for run.log). */
interface LoadgenLauncher {
  launcher: string[];
  note: string;
}

/**
 * Embedded (local) mode shares one machine between the load generator, the target, Redis and us. There the
 * generator's main thread waits in the CPU run queue behind the others (/proc schedstat) far longer than in
 * its GC pauses, and that wait — not GC — sets its send-lag tail. Under SCHED_FIFO (`chrt -f`) it preempts
 * them when a send is due. CPU pinning (taskset) is worse: the generator's own V8 and libuv threads then
 * share its one core (bench/RESULTS.md, "Send lag inside a run, undilated: the generator's priority").
 * Needs ≥ 2 cores (with one, a real-time generator would starve the target) and the right to set real-time
 * priority; else a no-op.
 */
export async function loadgenLauncher(host: Host, local: boolean): Promise<LoadgenLauncher> {
  if (!local) return { launcher: [], note: 'remote load-generator host: normal priority' };
  const cores = availableParallelism();
  if (cores < 2) return { launcher: [], note: `1 core: load generator at normal priority` };
  const launcher = ['chrt', '-f', String(LOADGEN_RT_PRIORITY)];
  try {
    const r = await host.exec([...launcher, 'true'], { timeoutMs: 5_000 });
    if (r.exitCode === 0) {
      return {
        launcher,
        note: `load generator at real-time priority (chrt -f ${LOADGEN_RT_PRIORITY}) on ${cores} cores`,
      };
    }
    return { launcher: [], note: `chrt -f refused (${r.stderr.trim()}): load generator at normal priority` };
  } catch (err) {
    return {
      launcher: [],
      note: `chrt unusable (${(err as Error).message}): load generator at normal priority`,
    };
  }
}

/**
 * How one of a point's `clients` load generators is launched: at real-time priority only while they leave
 * the machine a core — K generators polling under SCHED_FIFO on K cores would starve the target and Redis —
 * and only on the undilated clock. A dilated generator gets `nice -n -10` instead: the scheduler's favour,
 * fairly, so lanes on one machine do not starve each other's targets. It keeps polling: against normal
 * priority and against `nice -n -10` with the timer thread, `nice -n -10` polling gave the most precise sends
 * at the same CPU (bench/RESULTS.md, "The dilated clock"). A remote host's launcher is empty already.
 */
export function launcherFor(
  deployed: Deployed,
  clients: number,
  timeScale = 1,
  cores = availableParallelism(),
): Deployed {
  const crowded = clients > 1 && clients >= cores;
  if ((deployed.launcher?.length ?? 0) === 0) return deployed;
  if (crowded) return { ...deployed, launcher: [] };
  // Where real-time priority is allowed, a dilated generator still gets the scheduler's favour, fairly.
  if (timeScale > 1) return { ...deployed, launcher: DILATED_LAUNCHER };
  return deployed;
}

/**
 * What one load-generator process is told about its point, as the one PointSpec (contract/point-spec.ts).
 * The Redis URL (it may hold a password) is not in it: startLoadgen passes it in the environment.
 */
export function loadgenSpec(a: LoadgenArgs): PointSpec {
  const p = a.point;
  const s = replicaSetupOf(p.dims);
  const replicas = a.replicaTargets ?? [];
  const clients = a.clients ?? 1;
  return {
    run: a.run,
    slug: a.slug,
    target: a.targetUrl,
    // A perturbed point hedges late on purpose (model/perturb.ts); its schedule and model stay the model's.
    config: perturbedConfig(p.config, parsePerturbation(p.dims?.perturb ?? '')),
    load: p.load,
    calls: p.calls,
    seed: p.seed,
    warmupFraction: p.warmupFraction,
    model: p.model,
    timeScale: timeScaleOf(p),
    maxSeconds: Math.ceil(a.maxSeconds),
    sendLagThresholdMs: a.sendLagThresholdMs,
    ...(p.dims?.transport === 'grpc' ? { transport: 'grpc', grpcTarget: a.grpcTarget } : {}),
    ...(replicas.length > 0
      ? { replicaTargets: [...replicas], balancer: s.balancer, hedgeTo: s.hedgeTo }
      : {}),
    ...(clients > 1 ? { client: a.client ?? 0, clients } : {}),
    // A foreign service has no /health to warm up on and no /clock to exchange: the only traffic it gets is
    // the schedule (whose first warmupFraction of calls, unmeasured, warms the generator up instead).
    ...(a.foreign === undefined
      ? {}
      : { path: a.foreign.path, warmRequests: 0, clockSamples: 0, allowAnyTarget: a.foreign.allowAnyTarget }),
  };
}

/**
 * The command line of the load generator for one point: the spec as one JSON argument. JSON, not a file or
 * base64: every argv word reaches a remote host single-quoted by shellQuote inside the start script, which
 * travels on ssh's stdin (ssh-scripts.ts), so any text survives as one word — as --config and --model JSON
 * always did; a spec is ~1 KB, far below Linux's 128 KiB per argument; and `ps` and agents.json keep it
 * readable. A file would need a write before each start and a cleanup after.
 */
export function loadgenArgv(a: LoadgenArgs): string[] {
  return [
    ...(a.deployed.launcher ?? []),
    a.deployed.node,
    a.deployed.bundle,
    '--spec',
    pointSpecJson(loadgenSpec(a)),
    // Progress reaches the orchestrator through Redis; the log keeps only what went wrong.
    '--quiet',
  ];
}

/** The agent name (and log name) of a point's load generator: one per point, or one per client of K. */
function loadgenName(slug: string, client = 0, clients = 1): string {
  return clients === 1 ? `loadgen-${slug}` : `loadgen-${slug}-c${client}`;
}

/** A started load generator. */
export interface LoadgenProcess {
  host: Host;
  pid: number;
  /** Its log's name in the host's workDir. */
  log: string;
}

/** Starts the load generator for a point (recorded before it starts, under the run's lease). */
export async function startLoadgen(
  host: Host,
  a: LoadgenArgs,
  registry: AgentRegistry,
): Promise<LoadgenProcess> {
  const name = loadgenName(a.slug, a.client, a.clients);
  const pid = await startAgent(
    host,
    'loadgen',
    loadgenArgv(a),
    { name, env: redisEnv(a.redisUrl, a.redisCaFile), match: 'loadgen' },
    registry,
  );
  return { host, pid, log: `${name}.log` };
}

/** Stops a load generator (no error if it already exited) and forgets its pid. */
export async function stopLoadgen(p: LoadgenProcess, registry: AgentRegistry): Promise<void> {
  await p.host.stop(p.pid, { timeoutMs: 3_000 });
  registry.remove(p.host.name, p.pid);
}

/** The last lines of a load generator's log, for a failure reason. */
export async function loadgenLogTail(p: LoadgenProcess, lines = 3): Promise<string> {
  return logExcerpt(await p.host.readFile(p.log).catch(() => ''), lines);
}

/**
 * A log in one line: its last `lines` lines, after the error a crash printed when there is one (a Node
 * crash ends with the error object's fields and the Node version, which alone say nothing).
 */
export function logExcerpt(text: string, lines = 3): string {
  const all = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const at = all.findIndex((l) => /^[A-Z][A-Za-z]*Error\b/.test(l));
  const crash = at < 0 || at >= all.length - lines ? [] : all.slice(at, Math.min(at + 2, all.length - lines));
  return [...crash, ...all.slice(-lines)].join(' | ') || '(empty log)';
}
