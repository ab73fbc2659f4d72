// The warm-up before a point's t0: calls through a pipeline of the point's configuration to a side-effect-
// free route, so connections are open and V8 has optimised the call path before the first measured send.

import type { Cancel, Pipeline } from '../library/index.ts';
import type { Transport } from './http-transport.ts';

/** How much warm-up, and where to. */
interface WarmUp {
  requests: number;
  concurrency: number;
  /** A side-effect-free route of the target (its /health). */
  path: string;
  maxMs: number;
}

/**
 * `w.requests` calls through a pipeline from `newPipeline` (its own budget and limit), `w.concurrency` at a
 * time; resolves when they are done, when `stopped()` says so, or after `w.maxMs`. A cold process at 8 000
 * calls/s fell behind in its first milliseconds, opened thousands of connections to catch up, and never
 * recovered.
 */
export async function warmUp(
  newPipeline: () => Pipeline,
  transport: Transport,
  w: WarmUp,
  stopped: () => boolean,
): Promise<void> {
  const { requests, concurrency, path, maxMs } = w;
  if (requests <= 0 || concurrency <= 0) return;
  const pipe = newPipeline();
  const call = pipe.compose<number>((_cs, _attempt, done) => transport.sendTo(path, done));
  const cancels = new Map<number, Cancel>();
  let next = 0;
  let running = 0;
  let over = false;
  await new Promise<void>((resolve) => {
    const finish = (): void => {
      if (over) return;
      over = true;
      clearTimeout(deadline);
      for (const cancel of cancels.values()) cancel();
      cancels.clear();
      resolve();
    };
    // Bounded: a target that accepts connections but never answers must not hold the point back.
    const deadline = setTimeout(finish, maxMs);
    const launch = (): void => {
      while (!over && running < concurrency && next < requests && !stopped()) {
        const i = next++;
        running++;
        let returned = false;
        let doneEarly = false;
        const cancel = call(pipe.newCall(i), 1, () => {
          running--;
          cancels.delete(i);
          if (!returned) doneEarly = true;
          queueMicrotask(launch); // not a recursive call: a refused call answers synchronously
        });
        returned = true;
        if (!doneEarly) cancels.set(i, cancel);
      }
      if (running === 0 && (next >= requests || stopped())) finish();
    };
    launch();
  });
}
