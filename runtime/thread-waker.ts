// A precise alarm for the main thread: a small worker thread sleeps in Atomics.wait (sub-millisecond
// timeouts, futex precision) until the deadline, then posts a message that wakes the event loop.
// Unlike polling with setImmediate it burns no CPU while waiting, and unlike setTimeout it neither fires
// ~1 ms early (libuv's cached loop time) nor rounds to whole milliseconds.

import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

// Shared layout: Int32 [0] = generation (bumped on every new deadline; it may wrap, only equality counts),
// Int32 [1] = stop flag, Float64 at byte 8 = deadline on the hrtime clock in ms (Infinity = none). The
// worker answers each generation at most once. process.getBuiltinModule (Node ≥ 20.16/22.3) before
// require: an eval'd worker inherits --input-type=module from `node -e`, runs as ESM, and has no require.
const WORKER_SOURCE = `
const { workerData, parentPort } = (process.getBuiltinModule ?? require)('node:worker_threads');
const ctl = new Int32Array(workerData, 0, 2);
const at = new Float64Array(workerData, 8, 1);
const now = () => Number(process.hrtime.bigint()) / 1e6;
let answered = -1;
for (;;) {
  if (Atomics.load(ctl, 1) === 1) break;
  const gen = Atomics.load(ctl, 0);
  const deadline = at[0];
  if (gen === answered || !(deadline < Infinity)) { Atomics.wait(ctl, 0, gen); continue; }
  const wait = deadline - now();
  if (wait > 0) { Atomics.wait(ctl, 0, gen, wait); continue; }
  answered = gen;
  parentPort.postMessage(gen);
}
`;

/** Calls `onWake` (on the main thread) once the latest deadline given to `wakeAt` has passed. */
export class ThreadWaker {
  private readonly ctl: Int32Array;
  private readonly at: Float64Array;
  private readonly worker: Worker;
  // hrtime ms − performance.now() ms: both read the same monotonic clock, so this is constant.
  private readonly offset: number;
  private current = Number.POSITIVE_INFINITY;
  private reffed = false;

  constructor(onWake: () => void) {
    const sab = new SharedArrayBuffer(16);
    this.ctl = new Int32Array(sab, 0, 2);
    this.at = new Float64Array(sab, 8, 1);
    this.at[0] = Number.POSITIVE_INFINITY;
    this.offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: sab });
    this.worker.on('message', () => {
      // The alarm went off: the next wakeAt must re-arm even for the same deadline (e.g. a timer that a
      // drain found a few microseconds short of due).
      this.current = Number.NaN;
      onWake();
    });
    this.worker.on('error', (err) => {
      throw err;
    });
    // Like setTimeout, a set alarm keeps the process alive and an unset one does not (wakeAt/clear
    // toggle this). Unref after adding the listeners: adding a 'message' listener refs the worker again.
    this.worker.unref();
  }

  /** Sets the alarm to `deadline` (performance.now() ms), replacing any earlier setting. */
  wakeAt(deadline: number): void {
    if (deadline === this.current) return;
    this.current = deadline;
    const armed = deadline < Number.POSITIVE_INFINITY;
    if (armed !== this.reffed) {
      this.reffed = armed;
      if (armed) this.worker.ref();
      else this.worker.unref();
    }
    this.at[0] = deadline + this.offset;
    Atomics.add(this.ctl, 0, 1);
    Atomics.notify(this.ctl, 0);
  }

  /** Disarms the alarm (the worker sleeps until the next wakeAt). */
  clear(): void {
    this.wakeAt(Number.POSITIVE_INFINITY);
  }

  /** The deadline the alarm is set to (Infinity when none). */
  get deadline(): number {
    return this.current;
  }

  /** Stops the worker thread; the waker is unusable afterwards. */
  async close(): Promise<void> {
    Atomics.store(this.ctl, 1, 1);
    Atomics.add(this.ctl, 0, 1);
    Atomics.notify(this.ctl, 0);
    await this.worker.terminate();
  }
}
