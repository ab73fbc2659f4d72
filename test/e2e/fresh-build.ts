// Makes sure dist/ holds bundles built from the sources as they are now: the end-to-end run deploys them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { REPO } from '../lab/lab-fixture.ts';

/** The bundles `hedgebench run --hosts` needs (the CLI and the two agents it copies to the hosts). */
export const BUNDLES = ['hedgebench.mjs', 'target-server.mjs', 'loadgen.mjs'] as const;

/** Folders whose sources end up in the bundles. */
const SOURCE_DIRS = [
  'analysis',
  'library',
  'loadgen',
  'model',
  'orchestrator',
  'runtime',
  'simulator',
  'target-server',
];

function newestSource(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Why dist/ must be rebuilt (a bundle is missing or older than a source), or null when it is fresh. */
export function staleReason(): string | null {
  const bundles = BUNDLES.map((b) => join(REPO, 'dist', b));
  const missing = bundles.find((b) => !existsSync(b));
  if (missing) return `${missing} is missing`;
  const oldest = Math.min(...bundles.map((b) => statSync(b).mtimeMs));
  const sources = [
    ...SOURCE_DIRS.map((d) => newestSource(join(REPO, d))),
    statSync(join(REPO, 'package.json')).mtimeMs,
    statSync(join(REPO, 'scripts', 'build.mjs')).mtimeMs,
  ];
  return Math.max(...sources) > oldest ? 'a source file is newer than the bundles in dist/' : null;
}

/**
 * Runs `npm run build` when dist/ is missing or stale; returns what it did. `npm test` builds first, so in CI
 * this is a no-op; by hand it saves a confusing failure of an old bundle on the lab hosts.
 */
export async function ensureFreshBuild(): Promise<string> {
  const why = staleReason();
  if (why === null) return 'dist/ is up to date';
  const r = await execa('npm', ['run', 'build'], { cwd: REPO, reject: false, all: true, timeout: 120_000 });
  if (r.exitCode !== 0) throw new Error(`npm run build failed (${why}):\n${r.all}`);
  return `rebuilt dist/ (${why})`;
}
