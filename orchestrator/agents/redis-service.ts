// The run's Redis: a redis-server the orchestrator starts on a host (the embedded default: this machine,
// a free loopback port, data under the run folder), or an existing server reached by URL; over TLS
// (rediss://, certificate verified) when the hosts file gives the files for it.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { rootCertificates } from 'node:tls';
import type { Redis } from 'ioredis';
import { redactUrl, redisFromUrl } from '../../runtime/index.ts';
import { AgentStartError } from '../errors.ts';
import type { Host, RedisTlsFiles } from '../hosts/index.ts';
import type { AgentRegistry } from './agent-registry.ts';
import { startAgent } from './agent-start.ts';

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
  /**
   * Where an agent on `host` finds the CA this Redis's certificate is verified with (written there once);
   * undefined when the Redis needs none (plain, or a certificate the system trusts). See `redisEnv`.
   */
  caFileOn(host: Host): Promise<string | undefined>;
  stop(): Promise<void>;
}

/**
 * The environment an agent reaches the run's Redis with: the URL (kept off command lines: it holds the
 * password) and, for a private CA, NODE_EXTRA_CA_CERTS — Node then trusts that CA besides the system's,
 * so the agent verifies the server's certificate without any TLS option of its own.
 */
export function redisEnv(url: string, caFile: string | undefined): Record<string, string> {
  return { HEDGEBENCH_REDIS_URL: url, ...(caFile === undefined ? {} : { NODE_EXTRA_CA_CERTS: caFile }) };
}

/** Wraps an existing Redis; checks it answers PING. `caFile`: the CA of a rediss:// server (a path here). */
export async function useRedisUrl(url: string, caFile?: string, timeoutMs = 10_000): Promise<RedisService> {
  const ca = caFile === undefined ? null : await readFile(caFile, 'utf8');
  const client = await connect(
    url,
    timeoutMs,
    async () => true,
    () => Promise.resolve(''),
    ca,
  );
  return {
    url,
    display: redactUrl(url),
    version: null,
    client,
    caFileOn: caWriter(ca),
    stop: async () => {
      client.disconnect();
    },
  };
}

/** `caFileOn` for a CA (PEM) or none: writes it into each host's workDir on first use. */
function caWriter(ca: string | null): (host: Host) => Promise<string | undefined> {
  const written = new Map<string, Promise<string>>();
  return async (host) => {
    if (ca === null) return undefined;
    const key = `${host.name}:${host.workDir}`;
    let path = written.get(key);
    if (path === undefined) {
      path = host.writeFile('redis-ca.crt', ca, 0o644);
      written.set(key, path);
    }
    return path;
  };
}

/** Options of startRedis. */
interface StartRedisOptions {
  port: number;
  /** Records the pid so a resumed run can stop a redis-server a killed run left behind. */
  registry: AgentRegistry;
  /** Keep an append-only file (fsync every second) so a restarted redis-server still has the data. */
  durable?: boolean;
  /** Serve TLS only (rediss://) with this certificate and key; clients verify it with the CA. */
  tls?: Required<RedisTlsFiles>;
  timeoutMs?: number;
}

/**
 * Starts redis-server on `host`, bound to host.address only, memory only unless durable, with a per-run
 * password (Redis refuses unauthenticated clients from other hosts anyway). The password lives in a 0600
 * config file, never on redis-server's command line; waits until it answers PING. With `tls` the server
 * listens for TLS only (no plain port), so neither records nor the password cross the network in clear.
 */
export async function startRedis(host: Host, o: StartRedisOptions): Promise<RedisService> {
  const version = await redisVersion(host);
  const password = randomBytes(24).toString('hex');
  const conf = await host.writeFile('redis.conf', `requirepass ${password}\n`, 0o600);
  // redis-server needs its --dir to exist; writing a file there creates it on any Host.
  await host.writeFile('data/.keep', '');
  const dir = `${host.workDir}/data`;
  const ca = o.tls ? await readTlsFile(o.tls.ca, 'ca') : null;
  const tlsArgs = o.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(o.port),
        '--tls-cert-file',
        await host.writeFile('redis-tls.crt', await readTlsFile(o.tls.cert, 'cert'), 0o644),
        '--tls-key-file',
        await host.writeFile('redis-tls.key', await readTlsFile(o.tls.key, 'key'), 0o600),
        '--tls-ca-cert-file',
        await host.writeFile('redis-ca.crt', ca!, 0o644),
        // The password authenticates clients; a client certificate would be one more secret per agent host.
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(o.port)];
  const argv = [
    'redis-server',
    conf,
    ...tlsArgs,
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
  const url = `${o.tls ? 'rediss' : 'redis'}://:${password}@${where}`;
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
      ca,
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
    caFileOn: caWriter(ca),
    stop: async () => {
      client.disconnect();
      await stop();
      await host.exec(['rm', '-f', conf, `${host.workDir}/redis-tls.key`], { timeoutMs: 15_000 });
    },
  };
}

/** A TLS file of the hosts file's (checked readable when it was loaded; read now). */
async function readTlsFile(path: string, field: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new AgentStartError(
      `redis.tls.${field}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); fix the path in the hosts file`,
      { cause: err },
    );
  }
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

/**
 * Connects and PINGs until it answers; fails early when `alive()` turns false (the log tail says why).
 * `ca`: the CA (PEM) a rediss:// server is verified with, besides the system's.
 */
async function connect(
  url: string,
  timeoutMs: number,
  alive: () => Promise<boolean>,
  log: () => Promise<string>,
  ca: string | null = null,
): Promise<Redis> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  const client = redisFromUrl(url, {
    redis: {
      enableOfflineQueue: true,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
      ...(ca === null ? {} : { tls: { ca: [...rootCertificates, ca] } }),
    },
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
