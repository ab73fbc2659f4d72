// checkNode: the agents need Node.js 20 or newer on every host; say so clearly before deploying anything.
import { NodeMissingError } from './errors.ts';
import type { Host } from './host.ts';

/** Lowest Node.js major the bundles run on. */
const MIN_NODE_MAJOR = 20;

/** Runs `node --version` on the host; returns e.g. "v20.20.0", or throws HB_NODE_MISSING naming the host. */
export async function checkNode(host: Host, program = 'node'): Promise<string> {
  const r = await host.exec([program, '--version'], { timeoutMs: 30_000 });
  const version = r.stdout.trim();
  const major = /^v(\d+)\./.exec(version)?.[1];
  if (r.exitCode !== 0 || major === undefined) {
    throw new NodeMissingError(
      `host ${host.name} (${host.address}): Node.js is not installed or not on PATH for non-interactive ssh (\`${program} --version\` exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(0, 200)}). Fix: install Node.js ${MIN_NODE_MAJOR} or newer there (e.g. apt-get install nodejs from NodeSource) so that \`${program}\` is on PATH`,
    );
  }
  if (Number(major) < MIN_NODE_MAJOR) {
    throw new NodeMissingError(
      `host ${host.name} (${host.address}): Node.js ${version} is too old; hedgebench's agents need Node.js ${MIN_NODE_MAJOR} or newer. Fix: upgrade Node.js on that host`,
    );
  }
  return version;
}
