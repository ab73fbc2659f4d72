// The `hedgebench simulate` command: argv → simulateMatrix; progress on stderr, tables on stdout.

import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import {
  parseSeedList,
  parseTimeScale,
  replicaNotes,
  SEED_LIST_FLAG_TEXT,
  TIME_SCALE_FLAG_TEXT,
} from '../model/index.ts';
import { parsedOption, wholeNumberOption } from '../runtime/index.ts';
import { SimOptionError } from './errors.ts';
import { defaultMatrixPath, readMatrixFile } from './matrix-file.ts';
import { prepareSimOut } from './out-folder.ts';
import { simulateMatrix } from './simulate.ts';

interface SimulateArgs {
  matrix?: string;
  calls?: string;
  seed?: string;
  out?: string;
  threads?: string;
  'time-scale'?: string;
}

/** results/<yyyymmdd-hhmmss>-sim-<matrix name> under cwd. */
function defaultOut(name: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return resolve('results', `${stamp}-sim-${name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'matrix'}`);
}

/** A whole-number option (the error echoes what was typed, e.g. `abc`). */
const option = (name: string, raw: string | undefined, min: number, what: string) =>
  wholeNumberOption(name, raw, min, what, (m) => new SimOptionError(m));

/** An option a model rule parses (`--seed`, `--time-scale`). */
const parsed = <T>(name: string, raw: string | undefined, parse: (t: string) => T | null, accepts: string) =>
  parsedOption(name, raw, parse, accepts, (m) => new SimOptionError(m));

/** yargs module of `hedgebench simulate`. */
export const simulateCommand: CommandModule<object, SimulateArgs> = {
  command: 'simulate',
  describe:
    'Simulate every point of a matrix (discrete-event, the library on a simulated clock) and write points.csv',
  builder: (y) =>
    y
      .option('matrix', {
        type: 'string',
        describe: 'matrix JSON file (default: experiments/quick.json)',
      })
      .option('calls', { type: 'string', describe: 'calls per point (overrides the matrix)' })
      .option('seed', {
        type: 'string',
        describe: "simulate these seeds instead of the matrix's: one (3), a range (1-12) or a list (1,4,7-9)",
      })
      .option('time-scale', {
        type: 'string',
        describe:
          'run every point k times slower (every duration × k, every rate ÷ k; results in model ms), overriding the matrix; auto simulates at 1',
      })
      .option('out', {
        type: 'string',
        describe: 'a new output folder (default results/<time>-sim-<matrix>); never a run folder',
      })
      .option('threads', {
        type: 'string',
        describe: 'worker threads (default: available cores; 0 = this thread)',
      })
      .example('$0 simulate', 'the quick preset, in seconds')
      .example('$0 simulate --matrix experiments/reference.json --seed 1', 'the reference study, one seed')
      .example(
        '$0 simulate --matrix experiments/confirm.json --seed 1-12',
        'twelve seeds: then `hedgebench claims` says which verdicts depend on the seed',
      ),
  handler: async (argv) => {
    // Every input is checked before the first point is simulated.
    const calls = option('calls', argv.calls, 10, 'calls per point, warm-up included');
    const seeds = parsed('seed', argv.seed, parseSeedList, SEED_LIST_FLAG_TEXT);
    const threads = option('threads', argv.threads, 0, 'worker threads; 0 = this thread');
    const timeScale = parsed('time-scale', argv['time-scale'], parseTimeScale, TIME_SCALE_FLAG_TEXT);
    const m = readMatrixFile(argv.matrix ?? defaultMatrixPath(), { calls, seeds, timeScale });
    const out = argv.out === undefined ? defaultOut(m.name) : resolve(argv.out);
    prepareSimOut(out);
    for (const note of replicaNotes(m)) process.stderr.write(`note: ${note}\n`);
    const t0 = performance.now();
    const r = await simulateMatrix(m, out, {
      threads,
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
