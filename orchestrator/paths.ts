// Where hedgebench's own files are: the package root, the agent bundles and the default matrix.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The default matrix is the simulator's (`run` and `simulate` agree on it).
export { defaultMatrixPath } from '../simulator/index.ts';

/**
 * The package root. Both this source file (orchestrator/paths.ts) and the CLI bundle
 * (dist/hedgebench.mjs) sit one folder below it.
 */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The single-file agent bundles a host needs (built by `npm run build`). */
export const AGENT_BUNDLES = {
  target: join(PACKAGE_ROOT, 'dist', 'target-server.mjs'),
  loadgen: join(PACKAGE_ROOT, 'dist', 'loadgen.mjs'),
} as const;

/** The default run folder: results/<yyyymmdd-hhmmss>-<matrix name> under cwd (local time). */
export function defaultRunDir(matrixName: string, now = new Date(), cwd = process.cwd()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  const safe = matrixName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'run';
  return resolve(cwd, 'results', `${stamp}-${safe}`);
}
