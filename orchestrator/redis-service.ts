// The run's Redis: a redis-server the orchestrator starts on a host (the embedded default: this machine,
// a free loopback port, data under the run folder), or an existing server reached by URL.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { redactUrl, redisFromUrl } from '../runtime/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import { startAgent } from './agent-start.ts';
import { AgentStartError } from './errors.ts';
import type { Host } from './hosts/index.ts';

/** A Redis the run can use; `stop()` stops it only if this run started it. */
export interface RedisService {
  /** The URL agents and the orchestrator connect to (may hold a password: never log it; see `display`). */
  readonly url: string;
  /** The URL with credentials redacted. */
  readonly display: string;
  /** redis-server's version when this run started it, else null. */
  readonly version: string | null;
  /** A client of the orchestrator's own (progress, drain, delete). */
  readonly client: Redis;
  stop(): Promise<void>;
}

/** Wraps an existing Redis; checks it answers PING. */
export async function useRedisUrl(url: string, timeoutMs = 10_000): Promise<RedisService> {
  const client = await connect(
    url,
    timeoutMs,
    async () => true,
    () => Promise.resolve(''),
  );
  return {
    url,
    display: redactUrl(url),
    version: null,
    client,
    stop: async () => {
      client.disconnect();
    },
  };
}

/** Options of startRedis. */
export interface StartRedisOptions {
  port: number;
  /** Records the pid so a resumed run can stop a redis-server a killed run left behind. */
  registry: AgentRegistry;
  /** Keep an append-only file (fsync every second) so a restarted redis-server still has the data. */
  durable?: boolean;
  timeoutMs?: number;
}

/**
 * Starts redis-server on `host`, bound to host.address only, memory only unless durable, with a per-run
 * password (Redis refuses unauthenticated clients from other hosts anyway). The password lives in a 0600
 * config file, never on redis-server's command line; waits until it answers PING.
 */
export async function startRedis(host: Host, o: StartRedisOptions): Promise<RedisService> {
  const version = await redisVersion(host);
  const password = randomBytes(24).toString('hex');
  const conf = await host.writeFile('redis.conf', `requirepass ${password}\n`, 0o600);
  // redis-server needs its --dir to exist; writing a file there creates it on any Host.
  await host.writeFile('data/.keep', '');
  const dir = `${host.workDir}/data`;
  const argv = [
    'redis-server',
    conf,
    '--port',
    String(o.port),
    '--bind',
    host.address,
    '--save',
    '',
    '--appendonly',
    o.durable ? 'yes' : 'no',
    '--appendfsync',
    'everysec',
    '--dir',
    dir,
    '--pidfile',
    `${dir}/redis.pid`,
    '--daemonize',
    'no',
  ];
  const pid = await startAgent(host, 'redis', argv, { name: 'redis', match: 'redis-server' }, o.registry);
  const where = `${host.address.includes(':') ? `[${host.address}]` : host.address}:${o.port}`;
  const url = `redis://:${password}@${where}`;
  const stop = async () => {
    await host.stop(pid);
    o.registry.remove(host.name, pid);
  };
  let client: Redis;
  try {
    client = await connect(
      url,
      o.timeoutMs ?? 15_000,
      () => host.isAlive(pid),
      () => host.readFile('redis.log').catch(() => ''),
    );
  } catch (err) {
    await stop().catch(() => {});
    throw new AgentStartError(
      `host ${host.name}: redis-server did not start on ${url}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  return {
    url,
    display: redactUrl(url),
    version,
    client,
    stop: async () => {
      client.disconnect();
      await stop();
      await host.exec(['rm', '-f', conf], { timeoutMs: 15_000 });
    },
  };
}

async function redisVersion(host: Host): Promise<string> {
  const r = await host.exec(['redis-server', '--version'], { timeoutMs: 15_000 }).catch((err: Error) => ({
    exitCode: 127,
    stdout: '',
    stderr: err.message,
  }));
  const v = /v=(\S+)/.exec(r.stdout)?.[1];
  if (r.exitCode !== 0 || !v) {
    throw new AgentStartError(
      `host ${host.name} (${host.address}): redis-server is not installed or not on PATH (${(r.stderr || r.stdout).trim().slice(0, 200) || `exit ${r.exitCode}`}); install it (scripts/setup.sh does, or apt-get install redis-server) or name an existing Redis with { "redis": { "url": … } } in the hosts file`,
    );
  }
  return v;
}

/** Connects and PINGs until it answers; fails early when `alive()` turns false (the log tail says why). */
async function connect(
  url: string,
  timeoutMs: number,
  alive: () => Promise<boolean>,
  log: () => Promise<string>,
): Promise<Redis> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  const client = redisFromUrl(url, {
    redis: { enableOfflineQueue: true, maxRetriesPerRequest: 1, lazyConnect: false },
    onError: (m) => {
      last = m;
    },
  });
  while (Date.now() < deadline) {
    try {
      if ((await client.ping()) === 'PONG') return client;
    } catch (err) {
      last = (err as Error).message;
    }
    if (!(await alive())) {
      client.disconnect();
      const tail = (await log()).trim().split('\n').slice(-5).join(' | ');
      throw new Error(`the process exited (${tail || last || 'no log'})`);
    }
    await sleep(100);
  }
  client.disconnect();
  throw new Error(`no answer to PING within ${timeoutMs} ms (${last || 'no error'}) at ${redactUrl(url)}`);
}
