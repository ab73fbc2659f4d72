// The hedgebench CLI: one yargs program; each part contributes its command module.
import { join } from 'node:path';
import yargs, { type Argv, type CommandModule } from 'yargs';
import { claimsCommand, compareCommand, reportCommand } from '../../analysis/index.ts';
import { EXIT_CODES } from '../../library/index.ts';
import { loadgenCommand } from '../../loadgen/index.ts';
import { probeCommand, recommendCommand } from '../../probe/index.ts';
import { simulateCommand } from '../../simulator/index.ts';
import { targetServerCommand } from '../../target-server/index.ts';
import { UsageError } from '../errors.ts';
import { PACKAGE_ROOT } from '../paths.ts';
import { runCommand } from './run-command.ts';

// Each part exports its yargs CommandModules (from its *-command.ts) through its index.ts; list them here.
const commands: CommandModule[] = [
  runCommand as unknown as CommandModule,
  simulateCommand as unknown as CommandModule,
  targetServerCommand as CommandModule,
  compareCommand as unknown as CommandModule,
  reportCommand as unknown as CommandModule,
  claimsCommand as unknown as CommandModule,
  loadgenCommand as unknown as CommandModule,
  probeCommand as unknown as CommandModule,
  recommendCommand as unknown as CommandModule,
];

/** The top-level help's last lines: every exit status (EXIT_CODES) and where the documentation is. */
function exitCodesEpilogue(): string {
  const e = EXIT_CODES;
  return [
    'Exit status:',
    `  ${e.ok}    done: every point measured (run), or the command did its work`,
    `  ${e.failed}    a point failed, or bad input (one line: hedgebench: HB_…: what, where, the fix)`,
    `  ${e.usage}    a command line hedgebench cannot parse (HB_USAGE)`,
    `  ${e.thresholds}    measured, but the thresholds failed (--fail-on / the matrix's failOn)`,
    `  ${e.sigint}  ${e.sigterm}  interrupted by SIGINT / SIGTERM (continue with run --resume)`,
    '',
    `Docs: ${join(PACKAGE_ROOT, 'docs/running.md')} (runs, exit status, bad input),`,
    `      ${join(PACKAGE_ROOT, 'results/README.md')} (every file and column).`,
    'HEDGEBENCH_DEBUG=1 adds the stack trace to a fatal error.',
  ].join('\n');
}

/** Builds the CLI for the given argv (without the node and script names). */
export function createCli(argv: string[]): Argv {
  let cli = yargs(argv)
    .scriptName('hedgebench')
    .usage(
      '$0 <command> [options]\n\nDoes hedging behave on a real clock the way the queueing simulation says it does?',
    )
    .example('$0 run', 'the quick experiment, everything on this machine (about a minute)')
    .example('$0 run --plan', 'what a run would measure, how long it takes, how much disk; starts nothing')
    .example('$0 simulate', 'the same matrix, simulated only (seconds)')
    .example('$0 compare results/<run> --fail-on diverges', 're-judge a run; exit 3 on a divergence')
    .example('$0 report results/<run>', 'report.md, report.html and charts/ for a run folder')
    .epilogue(exitCodesEpilogue())
    .strict()
    .demandCommand(
      1,
      'Name a command: run, simulate, compare, report, claims, probe or recommend (target-server and loadgen are the agents).',
    )
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 110))
    .showHelpOnFail(false)
    .fail((msg, err) => {
      // A usage mistake: say what is wrong and where help is; a thrown error goes to main.ts.
      if (err) throw err;
      const known = commands.some((c) => String(c.command).split(' ')[0] === argv[0]);
      throw new UsageError(`${msg}\nSee \`hedgebench ${known ? `${argv[0]} ` : ''}--help\`.`);
    });
  for (const c of commands) cli = cli.command(c);
  return cli;
}
