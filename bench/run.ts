// `npm run bench [-- NAME [ARGS…]]`: without a name, lists the benchmarks in bench/ with the first line of
// each (what it measures); with one, runs bench/NAME.ts under tsx with the remaining arguments.
// Benchmarks need a quiet machine; their figures go to bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const [name, ...args] = process.argv.slice(2);

if (name === undefined) {
  process.stdout.write('benchmarks (npm run bench -- NAME [ARGS…]; figures in bench/RESULTS.md):\n');
  for (const n of names) {
    const first = readFileSync(join(here, `${n}.ts`), 'utf8')
      .split('\n')[0]
      .replace(/^\/\/\s*/, '');
    process.stdout.write(`  ${n.padEnd(16)} ${first}\n`);
  }
} else if (!names.includes(name)) {
  process.stderr.write(`bench: no benchmark ${JSON.stringify(name)}; one of: ${names.join(', ')}\n`);
  process.exitCode = 1;
} else {
  const tsx = join(here, '..', 'node_modules', '.bin', 'tsx');
  const r = spawnSync(tsx, [join(here, `${name}.ts`), ...args], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
