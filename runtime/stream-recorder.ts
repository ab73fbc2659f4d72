// A buffered, pipelined writer of CSV lines to one Redis stream (`XADD key * r <line>`), kept off the hot
// path: add() only appends to memory; batches go out on a timer or when a batch is full. When Redis is
// slow or down the lines stay buffered (bounded) and the failed part of a batch is retried after the
// client reconnects, so a short outage loses nothing.

import type { Redis } from 'ioredis';

/** Options of createStreamRecorder. */
interface StreamRecorderOptions {
  /** Lines per pipelined batch (default 500). */
  batchSize?: number;
  /** Longest time a line waits in memory before a write is attempted, ms (default 50). */
  flushMs?: number;
  /**
   * Lines kept (buffered + in flight) before new ones are dropped and counted (default: env
   * HEDGEBENCH_RECORDER_MAX_BUFFERED, else 200 000; the variable lets a test shrink every agent's buffer).
   */
  maxBuffered?: number;
  /** Called with a short message when a batch fails (it will be retried); default: ignored. */
  onError?: (message: string) => void;
}

/** Counters of a recorder. `dropped` must stay zero in a normal run. */
export interface StreamRecorderStats {
  /** Lines Redis acknowledged. */
  written: number;
  /** Lines in memory, waiting or in flight. */
  buffered: number;
  /** Lines refused because the buffer was full (or the recorder closed). */
  dropped: number;
  /** Batches that failed at least in part and were retried. */
  failedBatches: number;
}

/** Writes lines to one stream; see the file header. */
export interface StreamRecorder {
  /** Queues one line; never blocks, never throws. */
  add(line: string): void;
  /** Resolves when every line added so far is in Redis (waits through outages; race it with a timeout). */
  flush(): Promise<void>;
  /** Refuses further lines, flushes, stops the timer. Does not close the Redis client (the caller owns it). */
  close(): Promise<void>;
  stats(): StreamRecorderStats;
}

/** A recorder writing `XADD key * r <line>` for each line, in pipelined batches over `redis`. */
export function createStreamRecorder(
  redis: Redis,
  key: string,
  options: StreamRecorderOptions = {},
): StreamRecorder {
  const batchSize = positiveInt('batchSize', options.batchSize ?? 500);
  const flushMs = positiveInt('flushMs', options.flushMs ?? 50);
  const fromEnv = process.env.HEDGEBENCH_RECORDER_MAX_BUFFERED;
  const maxBuffered = positiveInt(
    options.maxBuffered === undefined && fromEnv ? 'HEDGEBENCH_RECORDER_MAX_BUFFERED' : 'maxBuffered',
    options.maxBuffered ?? (fromEnv ? Number(fromEnv) : 200_000),
  );
  const onError = options.onError;

  // Chunks of at most batchSize lines: taking a batch is one shift, not a copy of the whole buffer.
  const chunks: string[][] = [];
  let queued = 0;
  let inFlight = 0;
  let written = 0;
  let dropped = 0;
  let failedBatches = 0;
  let writing = false;
  let kickPending = false;
  let closed = false;
  let waiters: Array<() => void> = [];

  const timer = setInterval(() => kick(), flushMs);
  // The timer must not keep a process alive by itself; close() drains explicitly.
  timer.unref();
  const onReady = (): void => kick();
  redis.on('ready', onReady);

  function kick(): void {
    kickPending = false;
    if (writing || queued === 0) {
      settle();
      return;
    }
    writing = true;
    void writeAll().finally(() => {
      writing = false;
      settle();
    });
  }

  async function writeAll(): Promise<void> {
    while (chunks.length > 0 && redis.status === 'ready') {
      const batch = chunks.shift()!;
      queued -= batch.length;
      inFlight = batch.length;
      const failed = await writeBatch(batch);
      inFlight = 0;
      written += batch.length - failed.length;
      if (failed.length > 0) {
        // Keep order: the failed lines go back in front; the next tick (or 'ready') retries them.
        chunks.unshift(failed);
        queued += failed.length;
        failedBatches++;
        return;
      }
    }
  }

  async function writeBatch(batch: string[]): Promise<string[]> {
    const pipeline = redis.pipeline();
    for (const line of batch) pipeline.xadd(key, '*', 'r', line);
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed: string[] = [];
      let firstError: unknown;
      for (let i = 0; i < batch.length; i++) {
        const err = results[i]?.[0];
        if (err !== null && err !== undefined) {
          firstError ??= err;
          failed.push(batch[i]!);
        } else if (results[i] === undefined) {
          failed.push(batch[i]!);
        }
      }
      if (failed.length > 0) report(firstError);
      return failed;
    } catch (err) {
      report(err);
      return batch;
    }
  }

  function report(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    onError?.(`stream ${key}: batch write failed (${message}); keeping the lines and retrying`);
  }

  function settle(): void {
    if (queued === 0 && inFlight === 0 && waiters.length > 0) {
      const ws = waiters;
      waiters = [];
      for (const w of ws) w();
    }
  }

  return {
    add(line: string): void {
      if (closed || queued + inFlight >= maxBuffered) {
        dropped++;
        return;
      }
      const last = chunks[chunks.length - 1];
      if (last !== undefined && last.length < batchSize) last.push(line);
      else chunks.push([line]);
      queued++;
      if (queued >= batchSize && !writing && !kickPending) {
        kickPending = true;
        setImmediate(kick);
      }
    },
    flush(): Promise<void> {
      if (queued === 0 && inFlight === 0) return Promise.resolve();
      const done = new Promise<void>((resolve) => waiters.push(resolve));
      kick();
      return done;
    },
    async close(): Promise<void> {
      closed = true;
      await this.flush();
      clearInterval(timer);
      redis.off('ready', onReady);
    },
    stats(): StreamRecorderStats {
      return { written, buffered: queued + inFlight, dropped, failedBatches };
    },
  };
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`createStreamRecorder: ${name} must be a positive integer, got ${value}`);
  }
  return value;
}
