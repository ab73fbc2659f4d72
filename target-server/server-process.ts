// Runs one target server as a process: reads the token, starts listening, prints the `listening` line on
// stdout, and on SIGTERM/SIGINT stops accepting, flushes the attempt records and exits 0.

import { readFileSync } from 'node:fs';
import type { Cancellation } from '../model/index.ts';
import type { PoolMode } from './attempt-pool.ts';
import { createTargetServer } from './create-server.ts';
import { TargetOptionsError } from './errors.ts';
import type { MainLoopStall } from './main-loop-stall.ts';

/** The process-level settings (CLI flags and environment). */
interface RunOptions {
  host: string;
  port: number;
  /** Also listen for gRPC on this port (0 = any free one); absent = HTTP only. */
  grpcPort?: number;
  workers: number;
  seed: number;
  cancellation: Cancellation;
  redis?: string;
  tokenFile?: string;
  /** How the clock waits for deadlines ('thread' default, or 'poll'). */
  timer?: 'thread' | 'poll';
  /** 'poll' only: when polling takes over before a deadline, ms. */
  timerLeadMs?: number;
  /** Where the worker pool runs ('thread' default, or 'loop'). */
  pool?: PoolMode;
  /** 'thread' mode: real-time priority for the pool thread when permitted ('rt' default). */
  poolPriority?: 'rt' | 'normal';
  /** Benchmarks only: stall the main event loop `ms` every `everyMs`. */
  mainLoopStall?: MainLoopStall;
}

/** Reads the control token from `tokenFile`, else HEDGEBENCH_TOKEN; null when neither is set. */
function readToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(tokenFile, 'utf8');
    } catch (err) {
      throw new TargetOptionsError(
        `--token-file ${tokenFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); give a readable file holding the token`,
        { cause: err },
      );
    }
    const token = text.trim();
    if (token === '') throw new TargetOptionsError(`--token-file ${tokenFile} is empty; put the token in it`);
    return token;
  }
  const fromEnv = env.HEDGEBENCH_TOKEN?.trim();
  return fromEnv ? fromEnv : null;
}

/**
 * Test only: HEDGEBENCH_CLOCK_SKEW_MS shifts every time this target tells (its records, GET /clock) by a
 * constant, ms, so a test can check the load generator's clock-offset estimate against a known truth.
 */
export function readClockSkew(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.HEDGEBENCH_CLOCK_SKEW_MS?.trim();
  if (raw === undefined || raw === '') return undefined;
  const v = Number(raw);
  if (!Number.isFinite(v)) {
    throw new TargetOptionsError(
      `HEDGEBENCH_CLOCK_SKEW_MS = ${JSON.stringify(raw)} is not a number; unset it (it is for tests only) or give ms, e.g. 1234.5`,
    );
  }
  return v;
}

/** Starts the server and resolves after a signal has stopped it (exit code 0). */
export async function runTargetServer(o: RunOptions): Promise<void> {
  const log = (m: string): void => {
    process.stderr.write(`target-server: ${m}\n`);
  };
  const token = readToken(o.tokenFile);
  const skew = readClockSkew();
  const server = await createTargetServer({
    host: o.host,
    port: o.port,
    grpcPort: o.grpcPort,
    workers: o.workers,
    seed: o.seed,
    cancellation: o.cancellation,
    redisUrl: o.redis ?? process.env.HEDGEBENCH_REDIS_URL,
    token: token ?? undefined,
    clock: { waker: o.timer, leadMs: o.timerLeadMs, offsetMs: skew },
    pool: o.pool,
    poolPriority: o.poolPriority,
    mainLoopStall: o.mainLoopStall,
    log,
  });
  process.stdout.write(
    `${JSON.stringify({ event: 'listening', url: server.url, ...(server.grpcAddress === null ? {} : { grpc: server.grpcAddress }), pid: process.pid })}\n`,
  );
  log(
    `listening on ${server.url}${server.grpcAddress === null ? '' : ` and gRPC ${server.grpcAddress}`} (workers ${o.workers}, seed ${o.seed}, cancellation ${o.cancellation}, pool ${server.stats().pool.mode}${token ? ', token required' : ''}${skew === undefined ? '' : `, clock skewed by ${skew} ms (test)`}${o.mainLoopStall ? `, main loop stalled ${o.mainLoopStall.ms} ms every ${o.mainLoopStall.everyMs} ms (benchmark only)` : ''})`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  log(`${signal}: stopping`);
  await server.close();
  const { recorder: rec, clients } = server.stats();
  const by = Object.entries(clients).map(([a, n]) => `${a} ${n}`);
  log(
    `stopped${rec ? ` (records: ${rec.written} written, ${rec.dropped} dropped)` : ''}; /work requests by client address: ${by.length > 0 ? by.join(', ') : 'none'}`,
  );
}
