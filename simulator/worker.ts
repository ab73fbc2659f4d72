// The worker-thread entry (bundled to dist/sim-worker.mjs): simulates the points its parent sends, one at a time.

import { parentPort } from 'node:worker_threads';
import type { Point } from '../model/index.ts';
import { runPoint } from './run-point.ts';
import type { RunPointOptions } from './run-point-options.ts';

/** Parent → worker: simulate this point. */
export interface WorkerRequest {
  index: number;
  point: Point;
  options: RunPointOptions;
}

/** Worker → parent: the result, or the error that stopped it. */
export type WorkerReply =
  | { index: number; result: import('./run-point-options.ts').SimResult }
  | { index: number; error: { message: string; code?: string } };

const port = parentPort;
if (port !== null) {
  port.on('message', (req: WorkerRequest) => {
    let reply: WorkerReply;
    const transfer: ArrayBuffer[] = [];
    try {
      const result = runPoint(req.point, req.options);
      // Per-call records (megabytes a point) move to the parent instead of being copied.
      const c = result.calls;
      if (c !== undefined)
        for (const a of [c.call, c.latencyMs, c.outcome, c.attempts, c.skipped, c.winner, c.busyMs])
          transfer.push(a.buffer as ArrayBuffer);
      reply = { index: req.index, result };
    } catch (err) {
      const e = err as { message?: string; code?: string };
      reply = { index: req.index, error: { message: e.message ?? String(err), code: e.code } };
    }
    port.postMessage(reply, transfer);
  });
}
