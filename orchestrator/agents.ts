// The agents of a run, brought up in a safe order and always brought down: hosts opened, leftovers of a
// killed run stopped, Node checked and bundles deployed, Redis started (or reached), target started (not
// when the matrix names a foreign service: that one is the user's, already running).
import { AgentRegistry, reapAgents } from './agent-registry.ts';
import { type Deployed, deployAgent } from './deploy.ts';
import { freePort } from './free-port.ts';
import { type Host, type HostsFile, isRedisUrl, openHosts, type RunHosts } from './hosts/index.ts';
import { AgentLease, DEFAULT_LEASE_SECONDS } from './lease.ts';
import { loadgenLauncher } from './loadgen-agent.ts';
import { type RedisService, startRedis, useRedisUrl } from './redis-service.ts';
import type { RunFolder } from './run-folder.ts';
import { TargetAgent } from './target-agent.ts';

/** What a run's agents need to know. */
export interface AgentsOptions {
  folder: RunFolder;
  hostsFile: HostsFile | undefined;
  /** An existing Redis to use instead of the hosts' (e.g. `--redis`). */
  redisUrl?: string;
  durableRedis: boolean;
  /** Agents stop by themselves this long after the last renewal of their lease (default 15 s). */
  leaseSeconds?: number;
  workers: number;
  seed: number;
  /** Some point goes over gRPC: the target also opens a gRPC port. */
  grpc?: boolean;
  /** The points go to a foreign service: no target server is deployed or started. */
  foreign?: boolean;
  say: (text: string) => void;
}

/** The running agents; fields fill in as `up()` proceeds, so `down()` stops whatever was started. */
export class Agents {
  readonly registry: AgentRegistry;
  hosts: RunHosts | undefined;
  loadgen: Deployed | undefined;
  redis: RedisService | undefined;
  target: TargetAgent | undefined;

  constructor(private readonly o: AgentsOptions) {
    this.lease = new AgentLease(o.leaseSeconds ?? DEFAULT_LEASE_SECONDS);
    this.registry = new AgentRegistry(o.folder.agentsPath, this.lease);
  }
  private readonly lease: AgentLease;

  /** Opens the hosts, stops what a killed run left behind and puts this run's lease on every host. */
  async open(): Promise<RunHosts> {
    const hosts = await openHosts(this.o.hostsFile, this.o.folder.dir);
    this.hosts = hosts;
    for (const a of await reapAgents(this.registry, hostMap(hosts))) {
      this.o.say(
        `hedgebench: stopped a ${a.role} agent (pid ${a.pid} on ${a.host}) that an earlier, killed run left behind`,
      );
      this.o.folder.event('agent-reaped', { role: a.role, host: a.host, pid: a.pid });
    }
    await this.lease.begin([...hostMap(hosts).values()], (host, err) => {
      this.o.say(
        `hedgebench: could not renew the agents' lease on host ${host.name} (${err.message}); retrying — agents stop by themselves after ${this.lease.seconds} s without one`,
      );
      this.o.folder.event('lease-renewal-failed', { host: host.name, error: err.message });
    });
    this.o.folder.event('lease', { token: this.lease.token, seconds: this.lease.seconds });
    return hosts;
  }

  /** Checks Node and copies the bundles first (an unreachable host fails here, before anything starts). */
  async deploy(): Promise<Deployed> {
    const hosts = this.hosts!;
    const local = hosts.mode === 'local';
    const [target, deployed, how] = await Promise.all([
      this.o.foreign ? Promise.resolve(undefined) : deployAgent(hosts.target, 'target', local),
      deployAgent(hosts.loadgen, 'loadgen', local),
      loadgenLauncher(hosts.loadgen, local),
    ]);
    const loadgen: Deployed = { ...deployed, launcher: how.launcher };
    this.o.folder.event('loadgen-priority', { launcher: how.launcher.join(' '), note: how.note });
    this.loadgen = loadgen;
    this.targetDeployed = target;
    return loadgen;
  }
  private targetDeployed: Deployed | undefined;

  /** Starts (or reaches) Redis, then the target server (none for a foreign service: `target` is null). */
  async start(): Promise<{ redis: RedisService; target: TargetAgent | null }> {
    const hosts = this.hosts!;
    const redis = await this.startRedis(hosts);
    this.redis = redis;
    if (this.o.foreign) {
      this.o.folder.event('agents-started', { target: null, redis: redis.display });
      return { redis, target: null };
    }
    const target = await TargetAgent.start({
      host: hosts.target,
      deployed: this.targetDeployed!,
      port: hosts.targetPort ?? (await freePort(hosts.target.address)),
      redisUrl: redis.url,
      workers: this.o.workers,
      seed: this.o.seed,
      // A hosts file names the HTTP port; gRPC takes the next one there (a free one on this machine).
      ...(this.o.grpc
        ? {
            grpcPort:
              hosts.targetPort !== undefined ? hosts.targetPort + 1 : await freePort(hosts.target.address),
          }
        : {}),
      registry: this.registry,
    });
    this.target = target;
    this.o.folder.event('agents-started', { target: target.url, redis: redis.display });
    return { redis, target };
  }

  /** Stops every agent this run started (and any still recorded), then closes the hosts. Never throws. */
  async down(): Promise<void> {
    await this.target?.dispose().catch(() => {});
    await this.redis?.stop().catch(() => {});
    if (this.hosts) await reapAgents(this.registry, hostMap(this.hosts)).catch(() => []);
    // Last: an agent on a host that could not be reached above stops by itself when its lease lapses.
    await this.lease.end();
    await this.hosts?.close().catch(() => {});
  }

  private async startRedis(hosts: RunHosts): Promise<RedisService> {
    if (this.o.redisUrl) return useRedisUrl(this.o.redisUrl);
    if (isRedisUrl(hosts.redis)) return useRedisUrl(hosts.redis.url);
    const host = hosts.redis;
    const port = hosts.redisPort ?? (await freePort(host.address));
    return startRedis(host, { port, registry: this.registry, durable: this.o.durableRedis });
  }
}

/** Hosts by name (each role's Host has its own name, even when two roles share a machine). */
function hostMap(hosts: RunHosts): Map<string, Host> {
  const m = new Map<string, Host>([
    [hosts.target.name, hosts.target],
    [hosts.loadgen.name, hosts.loadgen],
  ]);
  if (!isRedisUrl(hosts.redis)) m.set(hosts.redis.name, hosts.redis);
  return m;
}
