// Helpers of the reliability tests: a durable redis-server (append-only file) a test can crash and start
// again on the same port, a tiny real-run matrix, and a search of a whole run folder for a secret.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import { until } from '../orchestrator/fixture.ts';
import { freePort } from '../runtime/redis-process.ts';

/** A redis-server that fsyncs its append-only file before it answers (acknowledged = on disk). */
export interface DurableRedis {
  port: number;
  /** redis://[:password@]127.0.0.1:port */
  url: string;
  /** A client of the test's own that survives the restarts (errors ignored, reconnects by itself). */
  client: Redis;
  /** Kills the server with `signal` (SIGKILL = a crash) and waits for it to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data folder; resolves when it answers PING. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a durable redis-server on a free loopback port (with `password`, if given); `durable: false`
 * keeps nothing on disk, so a restart comes back empty.
 */
export async function startDurableRedis(
  password?: string,
  o: { durable?: boolean } = {},
): Promise<DurableRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hb-rel-redis-'));
  const argv = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    o.durable === false ? 'no' : 'yes',
    '--appendfsync',
    'always',
    '--dir',
    dir,
    ...(password ? ['--requirepass', password] : []),
  ];
  let child: ChildProcess | null = null;
  const auth = password ? `:${password}@` : '';
  const url = `redis://${auth}127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 1 });
  client.on('error', () => {});

  const start = async (): Promise<void> => {
    child = spawn('redis-server', argv, { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited (${child.exitCode})`);
      try {
        if (client.status === 'wait') await client.connect();
        if ((await client.ping()) === 'PONG') return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING in 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill(signal);
    await gone;
  };
  await start();
  return {
    port,
    url,
    client,
    kill,
    start,
    async stop() {
      client.disconnect();
      await kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a one-point matrix on a 4-worker model (about 140 calls/s at load 0.5: light on a 2-core box). */
export function writeMatrix(
  dir: string,
  name: string,
  o: { calls: number; config?: string; loads?: number[] },
): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      configs: [o.config ?? 'hedge, default budget'],
      loads: o.loads ?? [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: o.calls,
      calibration: false,
      model: { workers: 4 },
    }),
  );
  return path;
}

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p);
    return e.isFile() ? [p] : [];
  });
}

/** Files under `dir` (relative names) whose bytes contain `secret`. */
export function filesContaining(dir: string, secret: string): string[] {
  const needle = Buffer.from(secret);
  return filesUnder(dir)
    .filter((f) => statSync(f).size > 0 && readFileSync(f).includes(needle))
    .map((f) => relative(dir, f));
}

/** The data lines of a raw CSV file (header dropped). */
export function csvLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '');
}

/**
 * Waits until `completed()` (a point's completed calls, read from Redis) passes `n`; fails at once, with
 * the command's stderr, if the command ends first (e.g. it could not start).
 */
export async function untilProgress(
  command: PromiseLike<{ exitCode?: number; stderr: unknown }>,
  completed: () => Promise<number>,
  n: number,
): Promise<void> {
  let ended: { exitCode?: number; stderr: unknown } | null = null;
  void Promise.resolve(command).then((r) => {
    ended = r;
  });
  await until(
    async () => {
      if (ended) {
        throw new Error(
          `hedgebench run ended (exit ${ended.exitCode}) before ${n} calls: ${String(ended.stderr)}`,
        );
      }
      return (await completed().catch(() => 0)) > n;
    },
    90_000,
    `${n} completed calls`,
  );
}
