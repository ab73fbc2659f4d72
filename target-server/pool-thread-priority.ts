// The pool thread's priority setup: it finds its own Linux TID and, when asked, raises itself to SCHED_FIFO
// with chrt, once, before its loop starts; what it got (or why not) goes into its 'ready' message.
//
// Shipped to the thread as source text beside the loop (pool-thread-source.ts), so, like the loop, it must
// be self-contained: no runtime imports, no module-level names.

import type { PoolThreadHost, PoolThreadInit } from './pool-thread-layout.ts';

/** What the thread reports in its 'ready' message: its TID, the priority it runs at, and why, if not asked. */
export interface PoolThreadPriority {
  tid: string;
  priority: string;
  note: string;
}

/** Asks for `init.rtPriority` (when set) and says what the thread got; never throws. */
export function poolThreadPriority(init: PoolThreadInit, host: PoolThreadHost): PoolThreadPriority {
  let tid = '';
  let priority = 'normal';
  let note = '';
  try {
    tid = host.threadId();
  } catch (err) {
    note = `no thread id (${(err as Error).message})`;
  }
  if (init.rtPriority !== null && tid !== '') {
    try {
      host.setRealtime(tid, init.rtPriority);
      priority = `SCHED_FIFO ${init.rtPriority}`;
    } catch (err) {
      note = String((err as Error).message).split('\n')[0] ?? '';
    }
  }
  return { tid, priority, note };
}
