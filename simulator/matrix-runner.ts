// Runs many points, spread over worker threads (or in this thread). Results come back in the points' order
// and each depends only on its point, so the number of threads never changes the output.

import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Point } from '../model/index.ts';
import { SimPointError, SimWorkerError } from './errors.ts';
import { runPoint } from './run-point.ts';
import type { RunPointOptions, SimResult } from './run-point-options.ts';
import type { WorkerReply, WorkerRequest } from './worker.ts';

const YOUNG_GEN_MB = 192;

/** Options of runPoints. */
export interface RunPointsOptions extends RunPointOptions {
  /** Worker threads; 0 = simulate in this thread (default: available cores, at most one per point). */
  threads?: number;
  /** The bundled worker script (default: dist/sim-worker.mjs of this package). */
  workerUrl?: URL;
  /** Called after each point, in completion order. */
  onPoint?(result: SimResult, done: number, total: number): void;
}

/** The package root: the nearest folder above this file holding hedgebench's package.json. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'hedgebench')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new SimWorkerError(`cannot find hedgebench's package.json above ${from}`);
    dir = up;
  }
}

/** The bundled worker: next to this file when running from dist/, else dist/sim-worker.mjs of the package. */
function defaultWorkerUrl(): URL {
  const sibling = new URL('./sim-worker.mjs', import.meta.url);
  if (sibling.protocol === 'file:' && existsSync(fileURLToPath(sibling))) return sibling;
  return pathToFileURL(join(packageRoot(), 'dist', 'sim-worker.mjs'));
}

/** Simulates every point; resolves with the results in the order of `points`. */
export async function runPoints(
  points: readonly Point[],
  options: RunPointsOptions = {},
): Promise<SimResult[]> {
  const threads = Math.min(options.threads ?? availableParallelism(), points.length);
  const pointOptions: RunPointOptions = { maxInFlight: options.maxInFlight };
  // Added only when set, so the message a worker gets at the default is the one it always got.
  if (options.transport !== undefined) pointOptions.transport = options.transport;
  if (options.callRecords === true) pointOptions.callRecords = true;
  if (options.perturb !== undefined) pointOptions.perturb = options.perturb;
  if (threads <= 0) {
    const out: SimResult[] = [];
    for (const p of points) {
      const r = runPoint(p, pointOptions);
      out.push(r);
      options.onPoint?.(r, out.length, points.length);
    }
    return out;
  }
  const url = options.workerUrl ?? defaultWorkerUrl();
  if (url.protocol === 'file:' && !existsSync(fileURLToPath(url))) {
    throw new SimWorkerError(
      `the simulator worker ${fileURLToPath(url)} does not exist; run \`npm run build\` first`,
    );
  }
  return runOnWorkers(points, url, threads, pointOptions, options.onPoint);
}

function runOnWorkers(
  points: readonly Point[],
  url: URL,
  threads: number,
  pointOptions: RunPointOptions,
  onPoint: RunPointsOptions['onPoint'],
): Promise<SimResult[]> {
  return new Promise((resolve, reject) => {
    const results: (SimResult | undefined)[] = new Array(points.length);
    const workers: Worker[] = [];
    // Heavy points (high load, more calls) first, so no thread is left with a long one at the end.
    // Only the dispatch order changes: each result goes back to its point's slot.
    const order = points.map((_, i) => i).sort((a, b) => cost(points[b]) - cost(points[a]) || a - b);
    let nextIndex = 0;
    let done = 0;
    let failed = false;
    const stopAll = () => {
      for (const w of workers) void w.terminate();
    };
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      stopAll();
      reject(err);
    };
    const feed = (w: Worker) => {
      if (nextIndex >= points.length) return;
      const index = order[nextIndex++];
      const req: WorkerRequest = { index, point: points[index], options: pointOptions };
      w.postMessage(req);
    };
    for (let k = 0; k < threads; k++) {
      // A larger young generation: a point allocates many short-lived objects per call, and fewer
      // scavenges promote fewer of them, which saves CPU (bench/RESULTS.md, "The simulator").
      const w = new Worker(url, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GEN_MB } });
      workers.push(w);
      w.on('message', (reply: WorkerReply) => {
        if (failed) return;
        if ('error' in reply) {
          fail(new SimPointError(reply.error.message));
          return;
        }
        results[reply.index] = reply.result;
        done++;
        onPoint?.(reply.result, done, points.length);
        if (done === points.length) {
          stopAll();
          resolve(results as SimResult[]);
        } else feed(w);
      });
      w.on('error', (err) =>
        fail(new SimWorkerError(`a simulator worker thread failed: ${err.message}`, { cause: err })),
      );
      w.on('exit', (code) => {
        if (done < points.length && !failed)
          fail(new SimWorkerError(`a simulator worker thread exited early (code ${code})`));
      });
      feed(w);
    }
  });
}

// A rough relative cost: calls, more at high load (longer queues, collapses) and with more attempts.
function cost(p: Point): number {
  const attempts =
    p.config.hedge?.maxAttempts ?? (p.config.hedge ? 2 : (p.config.grpcHedging?.maxAttempts ?? 1));
  return p.calls * (1 + p.load * p.load) * attempts;
}
