// Bundles each deployable part into one file under dist/ (esbuild), so a host needs only Node.js 20.
import { existsSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const entries = {
  hedgebench: 'orchestrator/main.ts',
  'sim-worker': 'simulator/worker.ts',
  'target-server': 'target-server/main.ts',
  loadgen: 'loadgen/main.ts',
};

mkdirSync('dist', { recursive: true });
const present = Object.fromEntries(Object.entries(entries).filter(([, src]) => existsSync(src)));
await build({
  entryPoints: present,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Express, ioredis and friends are CommonJS: give the ESM bundle a real `require`.
  banner: {
    js: "import { createRequire as __hbCreateRequire } from 'node:module'; const require = __hbCreateRequire(import.meta.url);",
  },
});
