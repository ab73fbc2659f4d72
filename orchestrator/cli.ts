// The hedgebench CLI: one yargs program; each part contributes its command module.
import yargs, { type Argv, type CommandModule } from 'yargs';
import { compareCommand, reportCommand } from '../analysis/index.ts';
import { loadgenCommand } from '../loadgen/index.ts';
import { probeCommand, recommendCommand } from '../probe/index.ts';
import { simulateCommand } from '../simulator/index.ts';
import { targetServerCommand } from '../target-server/index.ts';
import { UsageError } from './errors.ts';
import { runCommand } from './run-command.ts';

// Each part exports one yargs CommandModule from its own command.ts; list them here.
const commands: CommandModule[] = [
  runCommand as unknown as CommandModule,
  simulateCommand as unknown as CommandModule,
  targetServerCommand as CommandModule,
  compareCommand as unknown as CommandModule,
  reportCommand as unknown as CommandModule,
  loadgenCommand as unknown as CommandModule,
  probeCommand as unknown as CommandModule,
  recommendCommand as unknown as CommandModule,
];

/** Builds the CLI for the given argv (without the node and script names). */
export function createCli(argv: string[]): Argv {
  let cli = yargs(argv)
    .scriptName('hedgebench')
    .usage(
      '$0 <command> [options]\n\nDoes hedging behave on a real clock the way the queueing simulation says it does?',
    )
    .strict()
    .demandCommand(1, 'Name a command; see `hedgebench --help`.')
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
