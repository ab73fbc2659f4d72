// The `hedgebench compare` and `hedgebench report` commands: argv in, files in the run folder out;
// the summary on stdout, notes and file names on stderr.

import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { compareRunFolder } from './write-comparison.ts';
import { writeReport } from './write-report.ts';

interface CompareArgs {
  run: string;
  'rewrite-points': boolean;
}

interface ReportArgs {
  run: string;
}

function printNotes(notes: readonly string[]): void {
  for (const n of notes) process.stderr.write(`note: ${n}\n`);
}

/** yargs module of `hedgebench compare results/<run>`. */
export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare <run>',
  describe:
    'Recompute comparison.csv (sim vs real per point and metric, 95 % intervals, verdicts) from a run folder',
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        demandOption: true,
        describe: 'the run folder, e.g. results/<run>',
      })
      .option('rewrite-points', {
        type: 'boolean',
        default: false,
        describe: 'also replace the real rows of points.csv by the ones recomputed from raw/',
      })
      .example('$0 compare results/20250101-120000-quick', 'writes comparison.csv and comparison.txt there'),
  handler: (argv) => {
    const r = compareRunFolder(resolve(argv.run), { rewritePoints: argv['rewrite-points'] });
    printNotes(r.analysis.notes);
    process.stdout.write(`${r.summaryLine}\n${r.calibrationLine}\n${r.simNetLine}\n`);
    process.stderr.write(`wrote ${r.files.join(', ')}\n`);
  },
};

/** yargs module of `hedgebench report results/<run>`. */
export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <run>',
  describe: 'Write report.md, report.html and charts/*.svg (and comparison.csv) for a run folder',
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        demandOption: true,
        describe: 'the run folder, e.g. results/<run>',
      })
      .example('$0 report results/20250101-120000-quick', 'then open results/…/report.html'),
  handler: async (argv) => {
    const r = await writeReport(resolve(argv.run));
    printNotes(r.analysis.notes);
    process.stdout.write(`${r.summaryLine}\n`);
    process.stderr.write(`wrote ${r.files.length} files; open ${resolve(argv.run, 'report.html')}\n`);
  },
};
