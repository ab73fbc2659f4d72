// The agents of a run, brought up in a safe order and always brought down: hosts opened, leftovers of a
// killed run stopped, Node checked and bundles deployed, Redis started (or reached), the targets started
// (one per replica the matrix asks for at most; none when the matrix names a foreign service: that one is the
// user's, already running). A run has one Agents for Redis alone (`redisOnly`: it owns the registry and the
// lease) and one per lane, which shares those three and brings up only its target(s) and load generator(s): a
// lane that cannot come up takes nothing else down with it.

import { type Host, type HostsFile, isRedisUrl, openHosts, type RunHosts } from '../hosts/index.ts';
import type { RunFolder } from '../plan/run-folder.ts';
import { AgentRegistry, reapAgents } from './agent-registry.ts';
import { type Deployed, deployAgent } from './deploy.ts';
import { freePort } from './free-port.ts';
import { AgentLease, DEFAULT_LEASE_SECONDS } from './lease.ts';
import { loadgenLauncher } from './loadgen-agent.ts';
import { type RedisService, startRedis, useRedisUrl } from './redis-service.ts';
import { newToken, TargetAgent } from './target-agent.ts';

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
  /** Target servers to run: the most replicas of any point (default 1). */
  replicas?: number;
  /** The points go to a foreign service: no target server is deployed or started. */
  foreign?: boolean;
  /** Only Redis: no target, no load generator (the run's first Agents, which the lanes share). */
  redisOnly?: boolean;
  /** Which lane these agents serve (default 0); a lane needs `shared`. */
  lane?: number;
  /** The registry, lease and (once started, before any lane's `start`) Redis of the `redisOnly` agents, for a lane's. */
  shared?: { registry: AgentRegistry; lease: AgentLease; redis?: RedisService };
  say: (text: string) => void;
}

/** The running agents; fields fill in as `up()` proceeds, so `down()` stops whatever was started. */
export class Agents {
  readonly registry: AgentRegistry;
  hosts: RunHosts | undefined;
  redis: RedisService | undefined;
  /** Replica r's target server is `targets[r]`; filled in as they start. */
  readonly targets: TargetAgent[] = [];

  constructor(private readonly o: AgentsOptions) {
    this.lease = o.shared?.lease ?? new AgentLease(o.leaseSeconds ?? DEFAULT_LEASE_SECONDS);
    this.registry = o.shared?.registry ?? new AgentRegistry(o.folder.agentsPath, this.lease);
  }
  readonly lease: AgentLease;

  /** Opens the hosts, stops what a killed run left behind and puts this run's lease on every host. */
  async open(): Promise<RunHosts> {
    const hosts = await openHosts(
      this.o.hostsFile,
      this.o.folder.dir,
      this.o.replicas ?? 1,
      this.o.lane ?? 0,
    );
    this.hosts = hosts;
    const mine = this.hostMap();
    for (const a of await reapAgents(this.registry, mine)) {
      this.o.say(
        `hedgebench: stopped a ${a.role} agent (pid ${a.pid} on ${a.host}) that an earlier, killed run left behind`,
      );
      this.o.folder.event('agent-reaped', { role: a.role, host: a.host, pid: a.pid });
    }
    if (this.o.shared) {
      await this.lease.extend([...mine.values()]);
      return hosts;
    }
    await this.lease.begin([...mine.values()], (host, err) => {
      this.o.say(
        `hedgebench: could not renew the agents' lease on host ${host.name} (${err.message}); retrying — agents stop by themselves after ${this.lease.seconds} s without one`,
      );
      this.o.folder.event('lease-renewal-failed', { host: host.name, error: err.message });
    });
    this.o.folder.event('lease', { token: this.lease.token, seconds: this.lease.seconds });
    return hosts;
  }

  /**
   * Checks Node and copies the bundles first (an unreachable host fails here, before anything starts).
   * Returns each load-generator host's bundle and launcher, in `hosts.loadgens` order.
   */
  async deploy(): Promise<Deployed[]> {
    const hosts = this.hosts!;
    const local = hosts.mode === 'local';
    // Targets one after another: two replicas may share a machine and working directory, hence the bundle.
    const deployTargets = async () => {
      const out: Deployed[] = [];
      if (this.o.foreign) return out;
      for (const t of hosts.targets) out.push(await deployAgent(t, 'target', local));
      return out;
    };
    const deployLoadgen = async (h: Host): Promise<Deployed> => {
      const [deployed, how] = await Promise.all([
        deployAgent(h, 'loadgen', local),
        loadgenLauncher(h, local),
      ]);
      this.o.folder.event('loadgen-priority', {
        ...this.laneField,
        ...(hosts.loadgens.length > 1 ? { host: h.name } : {}),
        launcher: how.launcher.join(' '),
        note: how.note,
      });
      return { ...deployed, launcher: how.launcher };
    };
    const [targets, loadgens] = await Promise.all([
      deployTargets(),
      Promise.all(hosts.loadgens.map(deployLoadgen)),
    ]);
    this.targetsDeployed = targets;
    return loadgens;
  }
  private targetsDeployed: Deployed[] = [];
  private readonly targetToken = newToken();

  /** Starts (or reaches) Redis, then the target servers (replica 0 first; none for a foreign service). */
  async start(): Promise<{ redis: RedisService; targets: TargetAgent[] }> {
    const hosts = this.hosts!;
    const redis = await this.startRedis(hosts);
    this.redis = redis;
    if (this.o.redisOnly) return { redis, targets: [] };
    if (this.o.foreign) {
      this.o.folder.event('agents-started', { ...this.laneField, target: null, redis: redis.display });
      return { redis, targets: [] };
    }
    for (const [r, host] of hosts.targets.entries()) {
      const port = hosts.targetPorts?.[r];
      const target = await TargetAgent.start({
        host,
        deployed: this.targetsDeployed[r]!,
        port: port ?? (await freePort(host.address)),
        redisUrl: redis.url,
        redisCaFile: await redis.caFileOn(host),
        workers: this.o.workers,
        seed: this.o.seed,
        // A hosts file names the HTTP port; gRPC takes the next one there (a free one on this machine). Only
        // replica 0 serves gRPC: a point over gRPC has one replica (replica-check.ts).
        ...(this.o.grpc && r === 0
          ? { grpcPort: port !== undefined ? port + 1 : await freePort(host.address) }
          : {}),
        registry: this.registry,
        // One token for the lane's targets: a tied point's replicas send each other peer cancels with it.
        token: this.targetToken,
      });
      this.targets.push(target);
    }
    const urls = this.targets.map((t) => t.url);
    this.o.folder.event('agents-started', {
      ...this.laneField,
      target: urls[0],
      ...(urls.length > 1 ? { targets: urls } : {}),
      redis: redis.display,
    });
    return { redis, targets: this.targets };
  }

  /**
   * Stops every agent this run (lane) started and any still recorded on its hosts, then closes the hosts.
   * Never throws. A lane's agents leave the shared Redis and lease to the `redisOnly` ones, which go down last.
   */
  async down(): Promise<void> {
    for (const t of this.targets) await t.dispose().catch(() => {});
    if (!this.o.shared) await this.redis?.stop().catch(() => {});
    if (this.hosts) await reapAgents(this.registry, this.hostMap()).catch(() => []);
    // Last: an agent on a host that could not be reached above stops by itself when its lease lapses.
    if (!this.o.shared) await this.lease.end();
    await this.hosts?.close().catch(() => {});
  }

  /** `{ lane }` in the events of a lane > 0 (a one-lane run's log is as before). */
  private get laneField(): { lane?: number } {
    return this.o.lane ? { lane: this.o.lane } : {};
  }

  /** Hosts by name (each role's Host has its own name, even when two roles share a machine): this Agents' roles only. */
  private hostMap(): Map<string, Host> {
    const hosts = this.hosts!;
    const m = new Map<string, Host>(
      this.o.redisOnly
        ? []
        : [
            ...hosts.targets.map((t): [string, Host] => [t.name, t]),
            ...hosts.loadgens.map((g): [string, Host] => [g.name, g]),
          ],
    );
    if (!this.o.shared && !isRedisUrl(hosts.redis)) m.set(hosts.redis.name, hosts.redis);
    return m;
  }

  private async startRedis(hosts: RunHosts): Promise<RedisService> {
    if (this.o.shared) {
      if (!this.o.shared.redis) throw new Error('a lane starts its targets only once Redis is up');
      return this.o.shared.redis;
    }
    if (this.o.redisUrl) return useRedisUrl(this.o.redisUrl);
    if (isRedisUrl(hosts.redis)) return useRedisUrl(hosts.redis.url, hosts.redisTls?.ca);
    const host = hosts.redis;
    const port = hosts.redisPort ?? (await freePort(host.address));
    const tls = hosts.redisTls;
    return startRedis(host, {
      port,
      registry: this.registry,
      durable: this.o.durableRedis,
      ...(tls?.cert && tls.key ? { tls: { ca: tls.ca, cert: tls.cert, key: tls.key } } : {}),
    });
  }
}
