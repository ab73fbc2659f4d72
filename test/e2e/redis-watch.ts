// Looks into the Redis a distributed run starts on the lab's Redis host: sees the run's keys come and go, and
// makes the server save its final contents on shutdown, so the test can prove that no key was left behind.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from '../runtime/redis-process.ts';

/** What the watcher saw while the run went on. */
export interface RedisWatchReport {
  /** True once it had logged in and set a save point (the server then writes dump.rdb when it stops). */
  armed: boolean;
  /** Every `hb:*` key seen while the run went on. */
  keysSeen: string[];
  /** Most `hb:*` keys present at one time. */
  maxKeys: number;
  /** The last problem met (connecting, a command), for an assertion message. */
  lastError: string | null;
}

/**
 * Watches the orchestrator's redis-server through its own password, read from the 0600 `redis.conf` the
 * orchestrator writes into the Redis host's workDir (the lab shares this machine's file system and the test
 * runs as root). Once logged in it sets a save point: redis-server then saves its data when the orchestrator
 * stops it with SIGTERM, and `keysInDump` reads that final state. The save point is 1 h away, so no
 * background save happens during the run.
 */
export class RedisWatch {
  private client: Redis | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly seen = new Set<string>();
  private report: RedisWatchReport = { armed: false, keysSeen: [], maxKeys: 0, lastError: null };

  constructor(
    private readonly confPath: string,
    private readonly host: string,
    private readonly port: number,
    /** The CA of a Redis that speaks TLS only (the lab's default); absent = plain TCP. */
    private readonly ca?: string,
  ) {}

  /** Starts watching (returns at once). */
  start(): void {
    this.loop = this.run();
  }

  /** Stops watching and returns what was seen. */
  async stop(): Promise<RedisWatchReport> {
    this.stopped = true;
    await this.loop;
    this.client?.disconnect();
    return { ...this.report, keysSeen: [...this.seen].sort() };
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.client === null) await this.login();
        else await this.sample();
      } catch (err) {
        this.report.lastError = (err as Error).message;
        // Once armed, a dead connection means the orchestrator stopped Redis: nothing more to see.
        if (this.report.armed) return;
        this.client?.disconnect();
        this.client = null;
      }
      await sleep(100);
    }
  }

  private async login(): Promise<void> {
    if (!existsSync(this.confPath)) return;
    const password = /^requirepass (\S+)$/m.exec(readFileSync(this.confPath, 'utf8'))?.[1];
    if (!password) return;
    const client = new Redis({
      host: this.host,
      port: this.port,
      password,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 2_000,
      ...(this.ca === undefined ? {} : { tls: { ca: this.ca } }),
    });
    client.on('error', (err: Error) => {
      this.report.lastError = err.message;
    });
    this.client = client;
    await client.connect();
    await client.config('SET', 'save', '3600 1');
    this.report.armed = true;
  }

  private async sample(): Promise<void> {
    const keys = await this.client!.keys('hb:*');
    for (const k of keys) this.seen.add(k);
    this.report.maxKeys = Math.max(this.report.maxKeys, keys.length);
  }
}

/**
 * The keys in a redis-server's dump.rdb: loads a copy into a fresh redis-server on a free loopback port (the
 * only sure reader of the format), lists every key, and stops it again.
 */
export async function keysInDump(dumpFile: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hb-e2e-dump-'));
  copyFileSync(dumpFile, join(dir, 'dump.rdb'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--dbfilename',
      'dump.rdb',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await client.connect();
        // PING answers only once the dump is loaded.
        await client.ping();
        break;
      } catch (err) {
        client.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server did not load ${dumpFile}: ${err}`);
        await sleep(100);
      }
    }
    return (await client.keys('*')).sort();
  } finally {
    client.disconnect();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
