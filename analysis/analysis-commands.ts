// The `hedgebench compare` and `hedgebench report` commands: argv in, files in the run folder out;
// the summary on stdout, notes and file names on stderr.

import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { RUN_FILES } from '../contract/index.ts';
import { writeClaims } from './claims/index.ts';
import { RunFolderArgumentError } from './errors.ts';
import { applyGate, comparisonJson, gateError, parseFailOn } from './judge/gate.ts';
import { sampleMismatches } from './judge/sample-mismatch.ts';
import { writeReport } from './write/compare-and-report.ts';
import { compareRunFolder } from './write/write-comparison.ts';

interface CompareArgs {
  run?: string;
  'rewrite-points': boolean;
  'fail-on'?: string;
  json?: boolean;
}

/** report and claims take the same one argument. */
interface ReportArgs {
  run?: string;
}

function printNotes(notes: readonly string[]): void {
  for (const n of notes) process.stderr.write(`note: ${n}\n`);
}

/** yargs module of `hedgebench compare results/<run>`. */
export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare [run]',
  describe:
    'Recompute comparison.csv (sim vs real per point and metric, 95 % intervals, verdicts) from a run folder',
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        describe: 'the run folder, e.g. results/<run>',
      })
      .option('fail-on', {
        type: 'string',
        describe:
          "exit 3 when a verdict in this list occurs (comma-separated: diverges, invalid, collapse-mismatch, missing; default: the matrix's failOn, else none)",
      })
      .option('json', {
        type: 'boolean',
        describe: 'print a machine-readable summary (JSON) on stdout instead of the lines',
      })
      .option('rewrite-points', {
        type: 'boolean',
        default: false,
        describe: 'also replace the real rows of points.csv by the ones recomputed from raw/',
      })
      .example('$0 compare results/20250101-120000-quick', 'writes comparison.csv and comparison.txt there')
      .example(
        '$0 compare results/20250101-120000-quick --fail-on diverges --json',
        'a CI gate: exit 3 on a divergence',
      ),
  handler: (argv) => {
    if (argv.run === undefined) throw new RunFolderArgumentError('compare');
    const flag = parseFailOn(argv['fail-on']);
    const r = compareRunFolder(resolve(argv.run), { rewritePoints: argv['rewrite-points'] });
    printNotes(r.analysis.notes);
    const gate = applyGate(r.analysis, flag);
    for (const w of sampleMismatches(r.analysis)) process.stderr.write(`warning: ${w}\n`);
    if (argv.json) {
      process.stdout.write(
        `${JSON.stringify({ ...comparisonJson(r.analysis, gate), files: r.files }, null, 2)}\n`,
      );
    } else {
      const lines = [r.summaryLine, r.agreementLine, r.calibrationLine, r.simNetLine, ...r.sensitivityLines];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    process.stderr.write(`wrote ${r.files.join(', ')}\n`);
    const err = gateError(gate);
    if (err) throw err;
  },
};

/** yargs module of `hedgebench report results/<run>`. */
export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report [run]',
  describe:
    'Write report.md, report.html and charts/*.svg (and comparison.csv) for a run folder, or the simulation-only report of a `simulate` folder',
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        describe: 'the run folder, e.g. results/<run>, or a folder written by `hedgebench simulate`',
      })
      .example('$0 report results/20250101-120000-quick', 'then open results/…/report.html'),
  handler: async (argv) => {
    if (argv.run === undefined) throw new RunFolderArgumentError('report');
    const r = await writeReport(resolve(argv.run));
    printNotes(r.analysis.notes);
    process.stdout.write(`${r.summaryLine}\n`);
    process.stderr.write(`wrote ${r.files.length} files; open ${resolve(argv.run, RUN_FILES.reportHtml)}\n`);
  },
};

/** yargs module of `hedgebench claims results/<run>`. */
export const claimsCommand: CommandModule<object, ReportArgs> = {
  command: 'claims [run]',
  describe:
    "Check the study's conclusions on every source of a run (or `simulate`) folder: holds / fails / inconclusive per claim, written to claims.csv",
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        describe: 'a folder of `hedgebench run` or `hedgebench simulate`, e.g. results/<run>',
      })
      .example(
        '$0 claims results/20250101-120000-confirm',
        'prints the claims table and writes claims.csv there',
      ),
  handler: (argv) => {
    if (argv.run === undefined) throw new RunFolderArgumentError('claims');
    const r = writeClaims(resolve(argv.run));
    printNotes(r.notes);
    process.stdout.write(r.text);
    process.stderr.write(`wrote ${r.file}\n`);
  },
};
