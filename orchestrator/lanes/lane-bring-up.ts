// A run's agents brought up and down: Redis's (the hub, whose registry and lease every lane shares), then
// every lane's hosts opened and deployed at once, then each lane's targets. With several lanes, a lane that
// cannot come up is left out and its points go to the others; a run of one lane stops with its error.

import { type Matrix, replicaSetupOf } from '../../model/index.ts';
import { Agents, type AgentsOptions } from '../agents/agents.ts';
import type { Deployed } from '../agents/deploy.ts';
import type { RedisService } from '../agents/redis-service.ts';
import { RunOptionError } from '../errors.ts';
import type { HostsFile, RunHosts } from '../hosts/index.ts';
import type { PlannedPoint } from '../plan/plan.ts';
import type { RunFolder } from '../plan/run-folder.ts';
import type { Lane } from './lanes.ts';
import type { RunOptions } from './run-options.ts';

/** What a run's agents are made from. */
interface RunAgentsOptions {
  folder: RunFolder;
  hostsFile: HostsFile | undefined;
  options: Pick<RunOptions, 'redisUrl' | 'durableRedis' | 'leaseSeconds'>;
  matrix: Matrix;
  plan: readonly PlannedPoint[];
  /** Lanes the run was planned with. */
  laneCount: number;
  say: (text: string) => void;
}

/** The hub's agents and every lane's; `down()` stops whatever was started, lanes first. */
export class RunAgents {
  // Redis's agents hold the registry and the lease; every lane's share them and go down first.
  readonly hub: Agents;
  readonly lanes: Agents[] = [];
  private shared: AgentsOptions['shared'];

  constructor(private readonly d: RunAgentsOptions) {
    this.hub = this.agentsOf({ redisOnly: true });
  }

  /** Opens the hub's hosts (reaping leftovers, putting the lease on them). */
  openHub(): Promise<RunHosts> {
    return this.hub.open();
  }

  /**
   * Every lane opens its hosts and deploys, all at once: an unreachable host fails here, before anything
   * starts. Returns each lane's deployed load generators, null for a lane left out.
   */
  async deploy(): Promise<(Deployed[] | null)[]> {
    const shared: AgentsOptions['shared'] = { registry: this.hub.registry, lease: this.hub.lease };
    this.shared = shared;
    for (let lane = 0; lane < this.d.laneCount; lane++) this.lanes.push(this.agentsOf({ lane, shared }));
    const deployed = await Promise.all(
      this.lanes.map((a, i) =>
        this.bringUp(i, async () => {
          await a.open();
          return a.deploy();
        }),
      ),
    );
    if (deployed.every((d) => d === null)) {
      throw new RunOptionError(
        `none of the ${this.d.laneCount} lanes could be brought up (each one's reason is above); fix the hosts, then continue with --resume`,
      );
    }
    return deployed;
  }

  /** Starts Redis, then each deployed lane's targets; returns Redis and the lanes ready to measure. */
  async start(deployed: (Deployed[] | null)[]): Promise<{ redis: RedisService; ready: Lane[] }> {
    const { redis } = await this.hub.start();
    this.shared!.redis = redis;
    const started = await Promise.all(
      this.lanes.map(async (a, i): Promise<Lane | null> => {
        const loadgens = deployed[i];
        if (!loadgens) return null;
        const up = await this.bringUp(i, () => a.start());
        return (
          up && { index: i, hosts: a.hosts!, loadgens, redis, targets: up.targets, registry: a.registry }
        );
      }),
    );
    return { redis, ready: started.filter((l): l is Lane => l !== null) };
  }

  /** Stops every lane's agents, then the hub's. */
  async down(): Promise<void> {
    await Promise.all(this.lanes.map((a) => a.down()));
    await this.hub.down();
  }

  private agentsOf(o: Pick<AgentsOptions, 'lane' | 'shared' | 'redisOnly'>): Agents {
    const { folder, hostsFile, options, matrix, plan } = this.d;
    return new Agents({
      folder,
      hostsFile,
      redisUrl: options.redisUrl,
      durableRedis: options.durableRedis ?? false,
      leaseSeconds: options.leaseSeconds,
      workers: matrix.model.workers,
      seed: matrix.seeds[0],
      grpc: matrix.transport?.includes('grpc') ?? false,
      // One target server per replica, started once for the run: the most any point asks for.
      replicas: Math.max(1, ...plan.map((p) => replicaSetupOf(p.point.dims).replicas)),
      foreign: matrix.target !== undefined,
      say: this.d.say,
      ...o,
    });
  }

  /**
   * One step of bringing up lane `index` (open and deploy, or start). With several lanes, a lane that cannot
   * (a host unreachable, no Node…) is left out, said so, and its points go to the other lanes: null then. A
   * run of one lane stops with the lane's error, as it always did.
   */
  private async bringUp<T>(index: number, step: () => Promise<T>): Promise<T | null> {
    try {
      return await step();
    } catch (err) {
      if (this.d.laneCount === 1) throw err;
      const error = (err as Error).message;
      this.d.say(
        `hedgebench: lane ${index} could not be brought up (${error}); its points go to the other lanes`,
      );
      this.d.folder.event('lane-down', { lane: index, error });
      return null;
    }
  }
}
