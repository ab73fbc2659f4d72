// The target server as an agent: started on its host with the run's token in a 0600 file, watched, restarted
// when it died, stopped at the end. One per replica; its files are named after its host (`target`,
// `target-1`…), so replicas sharing a machine and working directory keep apart.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentStartError } from '../errors.ts';
import type { Host } from '../hosts/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import { startAgent } from './agent-start.ts';
import type { Deployed } from './deploy.ts';
import { redisEnv } from './redis-service.ts';
import { TargetClient } from './target-client.ts';

/** Options of startTarget. */
interface TargetAgentOptions {
  host: Host;
  deployed: Deployed;
  port: number;
  /** Also serve gRPC on this port (points with transport grpc); absent = HTTP only. */
  grpcPort?: number;
  redisUrl: string;
  /** The CA of a rediss:// Redis, on the target's host (RedisService.caFileOn); absent = none needed. */
  redisCaFile?: string | undefined;
  workers: number;
  seed: number;
  registry: AgentRegistry;
  healthTimeoutMs?: number;
  /**
   * The control routes' token (default a new one). The targets of one lane share theirs: a tied point's target
   * servers cancel each other's copies with it (POST /peer-cancel).
   */
  token?: string;
}

/** A new random token for a run's control routes (hex, 256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** A running target server. */
export class TargetAgent {
  private constructor(
    private readonly o: TargetAgentOptions,
    readonly url: string,
    readonly client: TargetClient,
    private pidNow: number,
  ) {}

  /** `host:port` of the gRPC listener, or null when the run has no gRPC point. */
  get grpcAddress(): string | null {
    if (this.o.grpcPort === undefined) return null;
    const a = this.o.host.address;
    return `${a.includes(':') ? `[${a}]` : a}:${this.o.grpcPort}`;
  }

  /** Writes the token file, starts the server and waits for /health. */
  static async start(o: TargetAgentOptions): Promise<TargetAgent> {
    const token = o.token ?? newToken();
    const a = o.host.address;
    const url = `http://${a.includes(':') ? `[${a}]` : a}:${o.port}`;
    const agent = new TargetAgent(o, url, new TargetClient(url, token), 0);
    await o.host.writeFile(`${o.host.name}.token`, `${token}\n`, 0o600);
    await agent.launch();
    return agent;
  }

  get pid(): number {
    return this.pidNow;
  }

  private async launch(): Promise<void> {
    const { host, deployed } = this.o;
    const argv = [
      deployed.node,
      deployed.bundle,
      '--host',
      host.address,
      '--port',
      String(this.o.port),
      '--workers',
      String(this.o.workers),
      '--seed',
      String(this.o.seed),
      '--cancellation',
      'ignore',
      '--token-file',
      `${host.workDir}/${host.name}.token`,
      ...(this.o.grpcPort === undefined ? [] : ['--grpc-port', String(this.o.grpcPort)]),
    ];
    // The Redis URL may hold a password: the environment keeps it off the command line.
    const pid = await startAgent(
      host,
      'target',
      argv,
      { name: host.name, env: redisEnv(this.o.redisUrl, this.o.redisCaFile), match: 'target-server' },
      this.o.registry,
    );
    this.pidNow = pid;
    const deadline = Date.now() + (this.o.healthTimeoutMs ?? 20_000);
    while (Date.now() < deadline) {
      if (await this.client.healthy(1_000)) return;
      if (!(await host.isAlive(pid))) {
        this.o.registry.remove(host.name, pid);
        throw new AgentStartError(
          `host ${host.name}: the target server exited at start: ${await this.logTail()}`,
        );
      }
      await sleep(100);
    }
    await this.stop();
    throw new AgentStartError(
      `host ${host.name}: the target server did not answer ${this.url}/health within ${this.o.healthTimeoutMs ?? 20_000} ms: ${await this.logTail()}`,
    );
  }

  /** True while the process exists. */
  async isAlive(): Promise<boolean> {
    return this.pidNow > 1 && (await this.o.host.isAlive(this.pidNow));
  }

  /** Stops and starts the server (e.g. when it cannot get rid of a point's attempts). */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  /** Makes sure a healthy server runs: restarts it when it died or stopped answering. Returns true if it restarted. */
  async ensure(): Promise<boolean> {
    if ((await this.isAlive()) && (await this.client.healthy(3_000))) return false;
    await this.stop();
    await this.launch();
    return true;
  }

  /** The last lines of the server's log (for error messages). */
  async logTail(lines = 5): Promise<string> {
    const text = await this.o.host.readFile(`${this.o.host.name}.log`).catch(() => '');
    return text.trim().split('\n').slice(-lines).join(' | ') || '(empty log)';
  }

  /** Stops the server for good and deletes the token file: a spent secret has no business in a results folder. */
  async dispose(): Promise<void> {
    await this.stop();
    await this.o.host.exec(['rm', '-f', `${this.o.host.workDir}/${this.o.host.name}.token`], {
      timeoutMs: 15_000,
    });
  }

  /** Stops the server (SIGTERM, then SIGKILL) and forgets its pid. */
  async stop(): Promise<void> {
    if (this.pidNow <= 1) return;
    const pid = this.pidNow;
    await this.o.host.stop(pid);
    this.o.registry.remove(this.o.host.name, pid);
    this.pidNow = 0;
  }
}
