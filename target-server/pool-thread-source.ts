// What the pool thread runs, as source text: the loop (pool-thread-loop.ts) and its priority setup
// (pool-thread-priority.ts), each from Function.prototype.toString, and the host of Node APIs they are handed.
//
// The thread's code is passed as source (`eval: true`), like runtime/thread-waker.ts: the target ships as
// one esbuild bundle (dist/target-server.mjs, and inside dist/hedgebench.mjs), so there is no second file
// to deploy or to find at run time, and the same code runs under tsx, vitest and both bundles.

import { poolThreadLoop } from './pool-thread-loop.ts';
import { poolThreadPriority } from './pool-thread-priority.ts';

// tsx/esbuild's keepNames wraps functions in __name(); the eval'd source has no such helper, so define one.
// process.getBuiltinModule (Node ≥ 20.16/22.3) before require: an eval'd worker inherits
// --input-type=module from `node -e`, runs as ESM, and has no require.
/** The pool thread's whole program, for `new Worker(POOL_THREAD_SOURCE, { eval: true, workerData })`. */
export const POOL_THREAD_SOURCE = `
var __name = (f) => f;
const load = process.getBuiltinModule ?? require;
const { workerData, parentPort } = load('node:worker_threads');
const { readlinkSync } = load('node:fs');
const { execFileSync } = load('node:child_process');
const host = {
  post: (m, t) => parentPort.postMessage(m, t),
  hrtimeMs: () => Number(process.hrtime.bigint()) / 1e6,
  perfNow: () => performance.now(),
  threadId: () => readlinkSync('/proc/thread-self').split('/').pop(),
  setRealtime: (tid, p) => { execFileSync('chrt', ['-f', '-p', String(p), tid], { stdio: 'pipe', timeout: 5000 }); },
};
(${poolThreadLoop.toString()})(workerData, host, ${poolThreadPriority.toString()});
`;
