// Redis over TLS, as a run starts it from a hosts file's `redis.tls`: a real redis-server on loopback that
// speaks TLS only, a certificate made by scripts/redis-tls.sh, verification on — for the orchestrator's own
// client and for an agent, which gets the CA through its environment (redisEnv) and no TLS option of its own.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../orchestrator/agents/agent-registry.ts';
import { freePort } from '../../orchestrator/agents/free-port.ts';
import { type RedisService, redisEnv, startRedis } from '../../orchestrator/agents/redis-service.ts';
import { createLocalHost, type Host } from '../../orchestrator/hosts/index.ts';
import { ROOT, rmTemp, tempDir } from './fixture.ts';

let dir: string;
let host: Host;
let redis: RedisService | undefined;
let registry: AgentRegistry;

beforeAll(async () => {
  dir = tempDir('hb-redis-tls-');
  execFileSync(join(ROOT, 'scripts', 'redis-tls.sh'), [join(dir, 'tls'), '127.0.0.1']);
  host = createLocalHost({ name: 'redis', workDir: join(dir, 'work') });
  registry = new AgentRegistry(join(dir, 'agents.json'));
  const tls = { ca: 'ca.crt', cert: 'redis.crt', key: 'redis.key' };
  redis = await startRedis(host, {
    port: await freePort('127.0.0.1'),
    registry,
    tls: {
      ca: join(dir, 'tls', tls.ca),
      cert: join(dir, 'tls', tls.cert),
      key: join(dir, 'tls', tls.key),
    },
  });
}, 30_000);

afterAll(async () => {
  await redis?.stop();
  rmTemp(dir);
});

/** One PING with a client of the given options; the error's message when it fails. */
async function ping(options: RedisOptions): Promise<string> {
  const c = new Redis({
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...options,
  });
  // The reason (a TLS alert, a certificate check) reaches the error event; connect() only says "closed".
  let reason = '';
  c.on('error', (err: Error) => {
    reason = err.message;
  });
  try {
    await c.connect();
    return await c.ping();
  } catch (err) {
    return `error: ${reason || (err as Error).message}`;
  } finally {
    c.disconnect();
  }
}

describe("a run's Redis over TLS", () => {
  it("is reached by a rediss:// URL, and the orchestrator's client verifies it", async () => {
    expect(redis!.url).toMatch(/^rediss:\/\/:[0-9a-f]+@127\.0\.0\.1:\d+$/);
    expect(redis!.display).toMatch(/^rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+$/);
    expect(await redis!.client.set('hb:tls', '1')).toBe('OK');
  });

  it("speaks TLS only, and refuses a certificate check without the lab's CA", async () => {
    const u = new URL(redis!.url);
    const where = { host: u.hostname, port: Number(u.port), password: decodeURIComponent(u.password) };
    // No plain port: a client without TLS gets no PONG.
    expect(await ping(where)).toMatch(/^error: /);
    // TLS with only the system's CAs: the certificate is not trusted.
    expect(await ping({ ...where, tls: {} })).toMatch(/self[- ]signed|unable to (get|verify)/i);
    // TLS with the CA: it answers.
    const ca = await host.readFile('redis-ca.crt');
    expect(await ping({ ...where, tls: { ca } })).toBe('PONG');
  });

  it('lets an agent verify it through its environment alone (redisEnv + caFileOn)', async () => {
    const agentHost = createLocalHost({ name: 'loadgen', workDir: join(dir, 'agent') });
    const caFile = await redis!.caFileOn(agentHost);
    expect(caFile).toBe(join(dir, 'agent', 'redis-ca.crt'));
    // A fresh Node process, as an agent is: ioredis with the URL alone, its TLS defaults, and the env.
    const script =
      "const { Redis } = require('ioredis'); const r = new Redis(process.env.HEDGEBENCH_REDIS_URL, { maxRetriesPerRequest: 0, retryStrategy: () => null }); r.on('error', (e) => { console.log('error: ' + e.message); process.exit(1); }); r.get('hb:tls').then((v) => { console.log(v); r.disconnect(); });";
    const ok = await execa(process.execPath, ['-e', script], {
      cwd: ROOT,
      env: redisEnv(redis!.url, caFile),
      reject: false,
      timeout: 15_000,
    });
    expect(ok.stdout.trim(), ok.stderr).toBe('1');
    // The same process without the CA is refused: the environment is what made it trust the server.
    const refused = await execa(process.execPath, ['-e', script], {
      cwd: ROOT,
      env: redisEnv(redis!.url, undefined),
      reject: false,
      timeout: 15_000,
    });
    expect(refused.stdout).toMatch(/error: .*(self[- ]signed|unable to (get|verify))/i);
  });
});
