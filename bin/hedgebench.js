#!/usr/bin/env node
// The hedgebench command: runs the bundled CLI (built by `npm run build`, which scripts/setup.sh runs).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/hedgebench.mjs', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    'hedgebench: HB_NOT_BUILT: the CLI is not built yet. Run `bash scripts/setup.sh` (or `npm run build`) first.',
  );
  process.exit(1);
}
await import(cli.href);
