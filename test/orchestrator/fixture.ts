// Helpers of the orchestrator tests: temp folders, tiny matrices, the built CLI as a real child process,
// and a look at which processes still run for a run folder.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa, type Options } from 'execa';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { readAttemptsCsv, readCallsCsv } from '../../analysis/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';

/** The package root and the CLI bundle the tests run. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'hedgebench.mjs');

/** Fails loudly when the bundles are missing (npm test builds them first). */
export function requireBuild(): void {
  for (const b of ['hedgebench.mjs', 'target-server.mjs', 'loadgen.mjs', 'sim-worker.mjs']) {
    if (!existsSync(join(ROOT, 'dist', b))) {
      throw new Error(`dist/${b} is missing: run \`npm run build\` before these tests (npm test does)`);
    }
  }
}

/** A fresh temp folder; remove it with `rmTemp`. */
export function tempDir(prefix = 'hb-orch-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Removes a temp folder (ignores errors). */
export function rmTemp(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Writes a small matrix file: `configs` × load 0.5 × `cancellation`, `calls` calls, no calibration point. */
export function writeTinyMatrix(
  dir: string,
  o: { name?: string; configs?: string[]; loads?: number[]; cancellation?: string[]; calls?: number } = {},
): string {
  const path = join(dir, `${o.name ?? 'tiny'}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name: o.name ?? 'tiny',
      configs: o.configs ?? ['no hedge', 'hedge, default budget'],
      loads: o.loads ?? [0.5],
      cancellation: o.cancellation ?? ['ignore'],
      seeds: [1],
      calls: o.calls ?? 300,
      calibration: false,
    }),
  );
  return path;
}

/** Runs the built CLI to completion (never rejects on a non-zero exit). */
export function runCli(args: string[], options: Options = {}) {
  return execa(process.execPath, [CLI, ...args], { reject: false, timeout: 120_000, ...options });
}

/** JSON lines of a run's run.log. */
export function runLog(runDir: string): Array<{ event: string; key?: string; [k: string]: unknown }> {
  const path = join(runDir, 'run.log');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Pids of live processes whose command line mentions `text` (e.g. a run folder), this process excluded. */
export async function processesMentioning(text: string): Promise<number[]> {
  const r = await execa('ps', ['-eo', 'pid=,stat=,args='], { reject: false });
  return String(r.stdout)
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && !m[2].startsWith('Z') && m[3].includes(text))
    .map((m) => Number(m[1]))
    .filter((pid) => pid !== process.pid);
}

/** SIGKILLs every process that mentions `dir`: agents a failed test left behind must never outlive it. */
export async function killProcessesMentioning(dir: string | undefined): Promise<void> {
  for (const pid of dir ? await processesMentioning(dir) : []) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

/** Polls `cond` every 100 ms until it holds or `ms` pass. */
export async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A file of local runs: its temp folder, a real redis-server (URL) and a client of it. Read inside tests. */
export interface LocalRunSuite {
  readonly dir: string;
  readonly redisUrl: string;
  readonly redis: Redis;
}

/**
 * Sets up a file of local runs (beforeAll: the bundles checked, a temp folder, a real redis-server) and tears
 * it down (afterAll: every process still mentioning the folder killed, Redis stopped, the folder removed).
 */
export function localRunSuite(prefix?: string): LocalRunSuite {
  let dir = '';
  let server: RedisProcess | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    requireBuild();
    dir = tempDir(prefix);
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    await killProcessesMentioning(dir);
    redis?.disconnect();
    await server?.stop();
    rmTemp(dir);
  });
  return {
    get dir() {
      return dir;
    },
    get redisUrl() {
      return server!.url;
    },
    get redis() {
      return redis!;
    },
  };
}

/** An output stream that swallows what a run prints (the tests read its files instead). */
export const QUIET = { write: () => true };

/**
 * Each replica's mean asked hold (the drawn service times) and mean measured hold (end − start) over the
 * attempts of measured calls it started, model ms (raw wall ms ÷ k): what a replica's meanHoldMs is checked
 * against. Which calls land on which replica is the balancer's luck, so replicas are not compared.
 */
export function replicaHoldMeans(
  paths: { calls: string; attempts: string },
  replicas: number,
  k = 1,
): { askedMs: number[]; heldMs: number[] } {
  const measured = new Set(readCallsCsv(paths.calls).call);
  const a = readAttemptsCsv(paths.attempts);
  const asked = new Array<number>(replicas).fill(0);
  const held = new Array<number>(replicas).fill(0);
  const started = new Array<number>(replicas).fill(0);
  for (let i = 0; i < a.n; i++) {
    if (!measured.has(a.call[i]) || !Number.isFinite(a.startMs[i]) || !Number.isFinite(a.endMs[i])) continue;
    const r = a.replica?.[i] ?? 0;
    asked[r] += a.serviceMs[i] / k;
    held[r] += (a.endMs[i] - a.startMs[i]) / k;
    started[r]++;
  }
  return { askedMs: asked.map((x, r) => x / started[r]), heldMs: held.map((x, r) => x / started[r]) };
}
