// The `hedgebench simulate` command: argv → simulateMatrix; progress on stderr, tables on stdout.

import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { replicaNotes } from '../model/index.ts';
import { readMatrixFile } from './matrix-file.ts';
import { simulateMatrix } from './simulate.ts';

interface SimulateArgs {
  matrix: string;
  calls?: number;
  seed?: number;
  out?: string;
  threads?: number;
}

/** results/<yyyymmdd-hhmmss>-sim-<matrix name> under cwd. */
function defaultOut(name: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return resolve('results', `${stamp}-sim-${name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'matrix'}`);
}

/** yargs module of `hedgebench simulate`. */
export const simulateCommand: CommandModule<object, SimulateArgs> = {
  command: 'simulate',
  describe:
    'Simulate every point of a matrix (discrete-event, the library on a simulated clock) and write points.csv',
  builder: (y) =>
    y
      .option('matrix', {
        type: 'string',
        demandOption: 'Pass --matrix experiments/reference.json (or your own matrix file).',
        describe: 'matrix JSON file (see experiments/)',
      })
      .option('calls', { type: 'number', describe: 'calls per point (overrides the matrix)' })
      .option('seed', { type: 'number', describe: 'run only this seed (overrides the matrix seeds)' })
      .option('out', { type: 'string', describe: 'output folder (default results/<time>-sim-<matrix>)' })
      .option('threads', {
        type: 'number',
        describe: 'worker threads (default: available cores; 0 = this thread)',
      })
      .example('$0 simulate --matrix experiments/reference.json --seed 1', 'the reference study, one seed'),
  handler: async (argv) => {
    const m = readMatrixFile(argv.matrix, { calls: argv.calls, seed: argv.seed });
    const out = argv.out === undefined ? defaultOut(m.name) : resolve(argv.out);
    for (const note of replicaNotes(m)) process.stderr.write(`note: ${note}\n`);
    const t0 = performance.now();
    const r = await simulateMatrix(m, out, {
      threads: argv.threads,
      onPoint: (res, done, total) => {
        const s = ((performance.now() - t0) / 1000).toFixed(1);
        const verdict = res.collapse.collapsed ? `collapse${res.truncated ? ' (truncated)' : ''}` : 'ok';
        process.stderr.write(`[${done}/${total}] ${s}s  ${res.key}  ${verdict}\n`);
      },
    });
    process.stdout.write(r.tables);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    process.stderr.write(
      `simulated ${r.results.length} points in ${s}s; wrote ${r.pointsCsvPath} and ${r.evidencePath}\n`,
    );
  },
};
