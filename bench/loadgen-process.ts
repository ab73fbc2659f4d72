// What the load-generator benchmarks share: the loadgen bundle built as a run deploys it (plain node, no
// tsx), a trivial HTTP server in its own process that answers at once (so the target is never the
// bottleneck), and the machine's CPU pressure for the printout.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

// The trivial server answers at once with the target server's reply shape (zero queue, zero service).
const SERVER = `
const http = require('node:http');
const body = '{"queueMs":0,"serviceMs":0,"worker":0}';
const s = http.createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end(body); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));
`;

/** Starts the trivial server (at `nice` when given); its URL once it listens. */
export async function startTrivialServer(
  nice: number | null = null,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (nice !== null && child.pid !== undefined) setPriority(child.pid, nice);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Bundles loadgen/main.ts the way scripts/build.mjs does, into a temp folder (dist/ is left alone). */
export async function buildLoadgenBundle(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hb-bench-loadgen-'));
  const out = join(dir, 'loadgen.mjs');
  await build({
    entryPoints: ['loadgen/main.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __hbCreateRequire } from 'node:module'; const require = __hbCreateRequire(import.meta.url);",
    },
  });
  return out;
}

/** The kernel's CPU pressure (PSI), for the figures' context. */
export function cpuPressure(): string {
  try {
    const m = /some avg10=([\d.]+) avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? `CPU pressure (PSI some) avg10 ${m[1]}% avg60 ${m[2]}%` : 'CPU pressure n/a';
  } catch {
    return 'CPU pressure n/a';
  }
}

/** The load average and CPU pressure, for the figures' context (printed before and after). */
export function machineLoad(): string {
  return `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, ${cpuPressure()}`;
}
