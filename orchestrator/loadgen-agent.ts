// The load generator as an agent: one process per point, started on the load-generator host.
import type { Point } from '../model/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import type { Deployed } from './deploy.ts';
import type { Host } from './hosts/index.ts';

/** What one load-generator process is told. */
export interface LoadgenArgs {
  deployed: Deployed;
  targetUrl: string;
  point: Point;
  redisUrl: string;
  run: string;
  slug: string;
  /** Wall-time cap of the point (the generator stops early and marks the point collapsed). */
  maxSeconds: number;
}

/**
 * The command line of the load generator for one point (configuration and model as JSON). The Redis URL
 * (it may hold a password) is not on it: startLoadgen passes it in the environment.
 */
export function loadgenArgv(a: LoadgenArgs): string[] {
  const p = a.point;
  return [
    a.deployed.node,
    a.deployed.bundle,
    '--target',
    a.targetUrl,
    '--config',
    JSON.stringify(p.config),
    '--load',
    String(p.load),
    '--calls',
    String(p.calls),
    '--seed',
    String(p.seed),
    '--warmup',
    String(p.warmupFraction),
    '--model',
    JSON.stringify(p.model),
    '--run',
    a.run,
    '--point',
    a.slug,
    '--max-seconds',
    String(Math.ceil(a.maxSeconds)),
    // Progress reaches the orchestrator through Redis; the log keeps only what went wrong.
    '--quiet',
  ];
}

/** A started load generator. */
export interface LoadgenProcess {
  host: Host;
  pid: number;
  /** Its log's name in the host's workDir. */
  log: string;
}

/** Starts the load generator for a point and records its pid. */
export async function startLoadgen(
  host: Host,
  a: LoadgenArgs,
  registry: AgentRegistry,
): Promise<LoadgenProcess> {
  const name = `loadgen-${a.slug}`;
  const { pid } = await host.start(loadgenArgv(a), { name, env: { HEDGEBENCH_REDIS_URL: a.redisUrl } });
  registry.add({ role: 'loadgen', host: host.name, pid, match: 'loadgen' });
  return { host, pid, log: `${name}.log` };
}

/** Stops a load generator (no error if it already exited) and forgets its pid. */
export async function stopLoadgen(p: LoadgenProcess, registry: AgentRegistry): Promise<void> {
  await p.host.stop(p.pid, { timeoutMs: 3_000 });
  registry.remove(p.host.name, p.pid);
}

/** The last lines of a load generator's log, for a failure reason. */
export async function loadgenLogTail(p: LoadgenProcess, lines = 3): Promise<string> {
  const text = await p.host.readFile(p.log).catch(() => '');
  return text.trim().split('\n').slice(-lines).join(' | ') || '(empty log)';
}
